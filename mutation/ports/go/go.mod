module acemq.example/portschemata

go 1.19
