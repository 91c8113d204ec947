// CardAPI
