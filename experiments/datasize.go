package experiments

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/vbworkbench/vbw/experiments/config"
)

// Sizes of data files in an estimate.
//
// An estimate (Cost) counts what grows with the data as factors of the
// data files' shapes: DataRows, DataCols and DataBytes stand for the rows,
// the columns and the bytes of the file a config key names. Prepare reads
// each such file once, before anything runs, counting its rows and
// columns without holding it (a table: non-blank lines that do not start
// with '#', a first line without a number taken as its header, fields
// separated by commas if the first line has one and by blanks otherwise),
// and puts the counts into the factors; a file that is missing is refused
// naming its key. So a valid 3-million-row file in place of Old Faithful's
// 272 rows is refused by -max-work before it is read, naming the key.

// dataRef is the data file a factor stands for and which size of it.
type dataRef struct {
	file string
	dim  dataDim
}

type dataDim int

const (
	dimRows dataDim = iota
	dimCols
	dimBytes
)

// DataRows is the number of data rows of the table file that the config
// key key names (a header line and blank lines not counted); what says
// what a row is ("eruptions").
func DataRows(key, file, what string) Factor {
	return Factor{Key: key, Value: file, What: what, data: &dataRef{file, dimRows}}
}

// DataCols is the number of fields of a data row of the table file that
// key names.
func DataCols(key, file, what string) Factor {
	return Factor{Key: key, Value: file, What: what, data: &dataRef{file, dimCols}}
}

// DataBytes is the size in bytes of the file that key names (a text, for
// example).
func DataBytes(key, file, what string) Factor {
	return Factor{Key: key, Value: file, What: what, data: &dataRef{file, dimBytes}}
}

// dataShape is the counted shape of one file.
type dataShape struct{ rows, cols, bytes float64 }

// resolveData puts the sizes of the data files into the factors of c that
// stand for them, reading each file once from dir; a file that cannot be
// read is an error naming the key.
func resolveData(c *Cost, dir string) error {
	type scan struct {
		file  string
		lines bool
	}
	shapes := map[scan]dataShape{}
	resolve := func(fs []Factor) error {
		for i := range fs {
			f := &fs[i]
			if f.data == nil {
				continue
			}
			key := scan{f.data.file, f.data.dim != dimBytes}
			s, ok := shapes[key]
			if !ok {
				var err error
				if s, err = scanShape(dir, f.data.file, key.lines); err != nil {
					return config.FieldError(f.Key, f.Value, err.Error())
				}
				shapes[key] = s
			}
			f.N = [...]float64{s.rows, s.cols, s.bytes}[f.data.dim]
			if f.What == "" {
				f.What = [...]string{"rows", "columns", "bytes"}[f.data.dim]
			}
			f.What += " of " + filepath.Base(f.data.file)
		}
		return nil
	}
	if err := resolve(c.Cells); err != nil {
		return err
	}
	for _, parts := range [][]Part{c.Memory, c.CellMemory, c.Work} {
		for i := range parts {
			if err := resolve(parts[i].Of); err != nil {
				return err
			}
		}
	}
	return nil
}

// scanShape measures the file name (relative to dir unless absolute): its
// bytes, and with lines the rows and columns of the table it holds,
// reading it line by line (without lines only its size, so that a text of
// any length is not scanned).
func scanShape(dir, name string, lines bool) (dataShape, error) {
	path := name
	if !filepath.IsAbs(name) {
		path = filepath.Join(dir, name)
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return dataShape{}, fmt.Errorf("no such file %s (set data_dir in the config, -data or $%s)", path, DataEnv)
		}
		return dataShape{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return dataShape{}, err
	}
	if st.IsDir() {
		return dataShape{}, fmt.Errorf("%s is a directory, not a data file", path)
	}
	s := dataShape{bytes: float64(st.Size())}
	if !lines {
		return s, nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	first := true
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if first {
			first = false
			fields := splitFields(line)
			s.cols = float64(len(fields))
			numeric := false
			for _, fl := range fields {
				if _, err := strconv.ParseFloat(string(bytes.Trim(fl, `"`)), 64); err == nil {
					numeric = true
				}
			}
			if !numeric {
				continue // a header
			}
		}
		s.rows++
	}
	if err := sc.Err(); err != nil {
		return dataShape{}, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// splitFields splits a line at commas if it has one, else at blanks.
func splitFields(line []byte) [][]byte {
	if bytes.IndexByte(line, ',') >= 0 {
		return bytes.Split(line, []byte(","))
	}
	return bytes.Fields(line)
}
