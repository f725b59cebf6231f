package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// WriteJSON writes v to path atomically (WriteFileAtomic) as indented JSON
// with a trailing newline. HTML characters such as < and > are written as
// they are, not escaped.
func WriteJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil { // Encode adds the trailing newline
		return fmt.Errorf("write %s: %w", path, err)
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// ReadJSON decodes the JSON file at path into v. Syntax errors name the
// file, line and column.
func ReadJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return DecodeJSON(path, data, v)
}

// DecodeJSON decodes data, the content of the file path, into v, as
// ReadJSON does (for a reader that has read and checked the bytes itself).
func DecodeJSON(path string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset)
			return fmt.Errorf("%s:%d:%d: %v", path, line, col, se)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// lineCol converts a byte offset into a 1-based line and column. JSON syntax
// errors report the offset just after the offending byte.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off > 0 {
		off-- // point at the offending byte
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// strictUnmarshal decodes data into v, rejecting fields v does not have.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
