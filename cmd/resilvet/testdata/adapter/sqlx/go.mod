module example.com/sqlx

go 1.26
