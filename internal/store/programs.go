package store

import (
	"database/sql/driver"
	"fmt"
	"slices"
	"strings"
)

// A waitlist sign-up keeps its program as a small code rather than its
// name (migration 0042, docs/decisions/0215-waitlist-program-code.md): the
// name, 20 to 26 characters, was in the row, the unique (email, program)
// index and the line index. Only waitlist_signups.program holds codes; the
// roll-ups, referrals and announcements keep names. The store turns a name
// into its code where a statement takes one (ProgramCode as an argument)
// and a code into its name where a row is read (programName as a scan
// target, programNameSQL in SQL), so nothing above the store sees a code.

// programs are the programs by code (the index; 0 is none). Every sign-up
// keeps one: a code is never renumbered or reused, and a new program takes
// the next.
var programs = []string{1: "Upcycling Initiative", 2: "Wardrobe Clearance Program"}

// codeOf is the code of program name, 0 for a name that is no program.
func codeOf(name string) int64 {
	if name == "" {
		return 0
	}
	return int64(max(slices.Index(programs, name), 0))
}

// ProgramCode is a program's name given to a statement about sign-ups: it
// goes to the database as the program's code, or as 0 (no sign-up's) for a
// name that is no program.
type ProgramCode string

// Value implements driver.Valuer.
func (p ProgramCode) Value() (driver.Value, error) { return codeOf(string(p)), nil }

// IsProgram reports whether name is a program a sign-up can be stored with.
func IsProgram(name string) bool { return codeOf(name) > 0 }

// programName is a scan target for waitlist_signups.program: it reads the
// code and keeps the program's name.
type programName string

// Scan implements sql.Scanner.
func (p *programName) Scan(v any) error {
	code, ok := v.(int64)
	if !ok || code <= 0 || code >= int64(len(programs)) {
		return fmt.Errorf("store: %v is no program's code", v)
	}
	*p = programName(programs[code])
	return nil
}

// programNameSQL is the SQL expression of the program's name for the code
// in column col, for statements that copy a sign-up's program elsewhere or
// return it by name.
func programNameSQL(col string) string {
	var b strings.Builder
	b.WriteString("CASE " + col)
	for code, name := range programs[1:] {
		fmt.Fprintf(&b, " WHEN %d THEN '%s'", code+1, name)
	}
	b.WriteString(" END")
	return b.String()
}
