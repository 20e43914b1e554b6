module example.com/hystrix

go 1.26
