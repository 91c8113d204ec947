// CardMockServer
