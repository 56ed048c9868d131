package store

// MigrationStatements returns the statements of one embedded migration file,
// so tests can replay what the earlier migration runner did.
func MigrationStatements(name string) ([]string, error) {
	body, err := migrationFiles.ReadFile("migrations/" + name)
	if err != nil {
		return nil, err
	}
	return splitStatements(string(body)), nil
}
