module example.com/adapter

go 1.26

require example.com/sqlx v0.0.0

replace example.com/sqlx => ./sqlx
