module example.com/gossip

go 1.26
