module example.com/gpubug

go 1.24
