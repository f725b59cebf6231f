package datasets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"strconv"
)

// Field is one field of a line and its byte column, counted from 1.
type Field struct {
	Text string
	Col  int
}

// Lines splits data at '\n' and drops a '\r' before each; a final newline
// does not start another line. Line i of the result is line i+1 of the
// file.
func Lines(data []byte) [][]byte {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}

// IsBlank reports whether line holds nothing but blanks and tabs.
func IsBlank(line []byte) bool { return len(bytes.Trim(line, " \t")) == 0 }

// SplitComma splits a line at commas and trims blanks and tabs around each
// field; a field's column is that of its first character (of the comma's
// successor if the field is empty).
func SplitComma(line []byte) []Field {
	var fs []Field
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] != ',' {
			continue
		}
		f := line[start:i]
		lead := len(f) - len(bytes.TrimLeft(f, " \t"))
		fs = append(fs, Field{Text: string(bytes.Trim(f, " \t")), Col: start + lead + 1})
		start = i + 1
	}
	return fs
}

// SplitBlanks splits a line at runs of blanks and tabs.
func SplitBlanks(line []byte) []Field {
	var fs []Field
	for i := 0; i < len(line); {
		if line[i] == ' ' || line[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		fs = append(fs, Field{Text: string(line[i:j]), Col: i + 1})
		i = j
	}
	return fs
}

// unquote removes one pair of double quotes around s.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// Quote quotes a field for an error message, shortened to 24 bytes, so
// that the message stays on one line and short whatever the file holds.
func Quote(s string) string {
	const most = 24
	if len(s) > most {
		return strconv.Quote(s[:most]) + "…"
	}
	return strconv.Quote(s)
}

// CSVError turns an error of encoding/csv into "name:line: message" (the
// line where the faulty record starts), and any other error into
// "name: message".
func CSVError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", name, pe.StartLine, pe.Err)
	}
	return fmt.Errorf("%s: %v", name, err)
}
