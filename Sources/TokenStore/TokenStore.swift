// TokenStore
