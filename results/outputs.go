package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Output records one file a run wrote into its results folder.
type Output struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// DescribeOutputs returns the regular files directly in dir, except the
// manifest and hidden files, with their sizes and SHA-256, sorted by name.
func DescribeOutputs(dir string) ([]Output, error) {
	names, err := outputNames(dir)
	if err != nil {
		return nil, err
	}
	var outs []Output
	for _, name := range names {
		o, err := describe(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// outputNames returns the names of the regular files directly in dir,
// except the manifest and hidden files, sorted.
func outputNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if name := e.Name(); e.Type().IsRegular() && name != ManifestFile && !strings.HasPrefix(name, ".") {
			names = append(names, name)
		}
	}
	return names, nil
}

func describe(path string) (Output, error) {
	o, _, err := hashFile(path, false)
	return o, err
}

// hashFile returns the size and SHA-256 of the file at path, and with keep
// its content (read once: the bytes returned are the bytes hashed).
func hashFile(path string, keep bool) (Output, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return Output{}, nil, err
	}
	defer f.Close()
	h := sha256.New()
	var buf bytes.Buffer
	w := io.Writer(h)
	if keep {
		w = io.MultiWriter(h, &buf)
	}
	n, err := io.Copy(w, f)
	if err != nil {
		return Output{}, nil, err
	}
	return Output{Name: filepath.Base(path), Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, buf.Bytes(), nil
}

// IsFigure reports whether an output is a drawn figure (redrawn by vbw
// plot, so not checked by VerifyOutputs).
func IsFigure(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".svg" || ext == ".png"
}

// ErrOutputChanged is wrapped by the errors of VerifyOutputs and
// ReadOutput for a file whose size or SHA-256 differs from its record, or
// that is missing.
var ErrOutputChanged = errors.New("does not match the manifest")

// ErrNotListed is wrapped by ReadOutput's error for a file the manifest
// does not list.
var ErrNotListed = errors.New("is not in the manifest")

// Output returns the manifest's record of the output name.
func (m *Manifest) Output(name string) (Output, bool) {
	for _, o := range m.Outputs {
		if o.Name == name {
			return o, true
		}
	}
	return Output{}, false
}

// ReadOutput returns the content of the output name of the results folder
// dir if it matches the manifest's record of its size and SHA-256: the
// bytes returned are the bytes checked. The error wraps ErrNotListed for a
// file the manifest does not list, and ErrOutputChanged (and, for a
// missing file, fs.ErrNotExist) for one that differs from its record.
func (m *Manifest) ReadOutput(dir, name string) ([]byte, error) {
	return m.checkOutput(dir, name, true)
}

func (m *Manifest) checkOutput(dir, name string, keep bool) ([]byte, error) {
	path := filepath.Join(dir, name)
	o, ok := m.Output(name)
	if !ok || filepath.Base(name) != name {
		return nil, fmt.Errorf("%s: %w", path, ErrNotListed)
	}
	got, data, err := hashFile(path, keep)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: missing (%w: the folder was changed after its run; run the config again): %w", path, ErrOutputChanged, fs.ErrNotExist)
	}
	if err != nil {
		return nil, err
	}
	if got.Size != o.Size || got.SHA256 != o.SHA256 {
		return nil, fmt.Errorf("%s: %d bytes, SHA-256 %.12s…, %w (%d bytes, %.12s…): the file was changed or cut short after its run; run the config again",
			path, got.Size, got.SHA256, ErrOutputChanged, o.Size, o.SHA256)
	}
	return data, nil
}

// Unlisted returns the names of the files in dir that a run would have
// listed (see DescribeOutputs) but the manifest does not: files put into
// the folder after its run.
func (m *Manifest) Unlisted(dir string) ([]string, error) {
	names, err := outputNames(dir)
	if err != nil {
		return nil, err
	}
	var extra []string
	for _, name := range names {
		if _, ok := m.Output(name); !ok {
			extra = append(extra, name)
		}
	}
	return extra, nil
}

// VerifyOutputs checks that the data outputs (all but figures) recorded in
// dir's manifest are there with their recorded sizes and SHA-256, so that
// figures are never drawn from a folder changed or cut short after its run.
func VerifyOutputs(dir string) error {
	m, err := ReadManifest(filepath.Join(dir, ManifestFile))
	if err != nil {
		return err
	}
	if len(m.Outputs) == 0 {
		return fmt.Errorf("%s: the manifest lists no outputs (written by an older vbw? run the config again)", filepath.Join(dir, ManifestFile))
	}
	for _, o := range m.Outputs {
		if IsFigure(o.Name) {
			continue
		}
		if err := m.VerifyOutput(dir, o.Name); err != nil {
			return err
		}
	}
	return nil
}

// VerifyOutput checks that the output name of the results folder dir
// matches the manifest's record (the errors of ReadOutput), without
// keeping its content.
func (m *Manifest) VerifyOutput(dir, name string) error {
	_, err := m.checkOutput(dir, name, false)
	return err
}
