package bnn

import "path/filepath"

// configPath returns the path of a shipped config of this package.
func configPath(name string) string { return filepath.Join("..", "..", "configs", "bnn", name) }
