package results

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var outs []Output
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || name == ManifestFile || strings.HasPrefix(name, ".") {
			continue
		}
		o, err := describe(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}

func describe(path string) (Output, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Output{}, err
	}
	sum := sha256.Sum256(data)
	return Output{Name: filepath.Base(path), Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, nil
}

// CommitOutputs moves the files of a finished run from staging into dir:
// every output, then the manifest last, so that a folder with a new
// manifest has all of its outputs. Outputs of the previous run (listed in
// dir's old manifest) that the new run did not write are removed, so that
// no stale table or figure survives. Each move is an atomic rename.
func CommitOutputs(staging, dir string) error {
	var old []Output
	if m, err := ReadManifest(filepath.Join(dir, ManifestFile)); err == nil {
		old = m.Outputs
	}
	entries, err := os.ReadDir(staging)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && e.Name() != ManifestFile {
			names = append(names, e.Name())
		}
	}
	for _, name := range names {
		if err := os.Rename(filepath.Join(staging, name), filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	if err := os.Rename(filepath.Join(staging, ManifestFile), filepath.Join(dir, ManifestFile)); err != nil {
		return err
	}
	syncDir(dir)
	for _, o := range old {
		if !slices.Contains(names, o.Name) && filepath.Base(o.Name) == o.Name {
			os.Remove(filepath.Join(dir, o.Name))
		}
	}
	return nil
}

// IsFigure reports whether an output is a drawn figure (redrawn by vbw
// plot, so not checked by VerifyOutputs).
func IsFigure(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".svg" || ext == ".png"
}

// ErrOutputChanged is wrapped by VerifyOutputs' errors.
var ErrOutputChanged = errors.New("does not match the manifest")

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
		got, err := describe(filepath.Join(dir, o.Name))
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: missing (%w: the folder was changed after its run; run the config again)", filepath.Join(dir, o.Name), ErrOutputChanged)
		}
		if err != nil {
			return err
		}
		if got.Size != o.Size || got.SHA256 != o.SHA256 {
			return fmt.Errorf("%s: %d bytes, SHA-256 %.12s…, %w (%d bytes, %.12s…): the file was changed or cut short after its run; run the config again",
				filepath.Join(dir, o.Name), got.Size, got.SHA256, ErrOutputChanged, o.Size, o.SHA256)
		}
	}
	return nil
}
