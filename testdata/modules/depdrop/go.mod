module example.com/app

go 1.26

require (
	example.com/gossip v0.0.0
	example.com/hystrix v0.0.0
)

replace (
	example.com/gossip => ./gossip
	example.com/hystrix => ./hystrix
)
