module example.com/keepalive

go 1.24
