import CVipsShim
