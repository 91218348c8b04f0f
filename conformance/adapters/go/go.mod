module acemq.example/retrypolicy

go 1.19
