module example.com/keyfix

go 1.24
