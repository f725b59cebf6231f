package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vbworkbench/vbw/results"
)

// DefaultDataDir is the data directory used when neither the -data flag,
// the VBW_DATA environment variable nor a config's data_dir names one. It is
// relative to the directory vbw runs in (the repository root for make).
const DefaultDataDir = "../shared/data"

// DataEnv is the environment variable that overrides a config's data_dir.
const DataEnv = "VBW_DATA"

// DataFile describes one of the public data sets the experiments read.
type DataFile struct {
	Name   string // file name in the data directory
	What   string
	Source string // canonical source, for users who fetch it themselves
	SHA256 string
}

// KnownData lists the data files and their checksums (../shared/data/README.md).
var KnownData = []DataFile{
	{"abc21.txt", "the 21 training strings of the thesis's synthetic HMM experiment (section 3.5.1)",
		"the demo data of the thesis author's published VB-HMM code", "edb6b48a2668066d3b0cbf637a7d70f9ee077acd20d47e772d23a2c50938f79e"},
	{"alice29.txt", "Lewis Carroll, Alice's Adventures in Wonderland",
		"Project Gutenberg etext 11 (alice29.txt)", "58c82f469dcb231531705b62415c31561c8a0fea25ac744dc3451be12215babf"},
	{"optdigits.tra", "UCI optical digits, 3823 training images",
		"UCI Machine Learning Repository, data set 80 (optdigits)", "e1b683cc211604fe8fd8c4417e6a69f31380e0c61d4af22e93cc21e9257ffedd"},
	{"optdigits.tes", "UCI optical digits, 1797 test images",
		"UCI Machine Learning Repository, data set 80 (optdigits)", "6ebb3d2fee246a4e99363262ddf8a00a3c41bee6014c373ed9d9216ba7f651b8"},
	{"tcell.csv", "T-cell activation time courses (Rangel et al. 2004)",
		"R package longitudinal 1.1.13 (CRAN), objects tcell.34 and tcell.10", "85d5509bc5c26b08387bf3c423f13269e7b345b42d57ef129b33464e6ffdeb14"},
	{"tcell_genes.csv", "T-cell gene symbols and descriptions",
		"R package longitudinal 1.1.13 (CRAN), tcell.gene.description", "8c42c5440f9a92be45a7fd0380d11226caabe6512b34d3b3e20e903c0e150aa8"},
	{"pima_train.csv", "Pima Indian women (diabetes), Ripley's training set, 200 rows",
		"R package MASS 7.3-58, Pima.tr", "dd253952a163c8395a872f139e45dc282bb71e3047fed1c9d174b6870813702b"},
	{"pima_test.csv", "Pima Indian women (diabetes), Ripley's test set, 332 rows",
		"R package MASS 7.3-58, Pima.te", "5df53a692ed8a9052afd618401027691a565073b9044e72903796967329e5f8e"},
	{"boston.csv", "Boston housing, 506 rows: 13 inputs and the target medv",
		"R package MASS, Boston", "b9f88f3463a208dadd78546f0fb9ddacfa4897b4c92dd1b8269734f000fe377c"},
	{"crabs.csv", "Leptograpsus crabs, 200 rows (species, sex and five measurements)",
		"R package MASS, crabs", "bbd2a2c36e5cfe41fdde3868d06ab184360548f545cd46d0070f32d1c614c1de"},
	{"faithful.csv", "Old Faithful geyser eruptions",
		"R datasets::faithful (Härdle 1991)", "d40b983752ab7ec0b15b740089c3ca7b7b59d0c7433a029a1714d134de1e8d14"},
	{"sunspots.csv", "yearly mean sunspot numbers 1700-1988",
		"R datasets::sunspot.year (R 4.2.2)", "0797e7e322e9889c224f1f39f9ad001745521f0085b6311f2d76a7f6a5d30280"},
	{"tecator.csv", "Tecator meat spectra, 215 rows: 100 absorbances, water, fat, protein",
		"R package caret 6.0-93, data(tecator): absorp and endpoints", "5c11adca51173c3fca6581833946332e2f799eff053aab9968b8235cadd9ac24"},
}

// ResolveDataDir picks the data directory: flag, then $VBW_DATA, then the
// config's value, then DefaultDataDir.
func ResolveDataDir(flag, config string) string {
	for _, d := range []string{flag, os.Getenv(DataEnv), config} {
		if d != "" {
			return d
		}
	}
	return DefaultDataDir
}

// ReadData reads a data file. A relative name is looked up in dir, an
// absolute one is used as is. A file listed in KnownData must match its
// SHA-256; errors name the file and, for known files, its source.
func ReadData(dir, name string) ([]byte, error) {
	data, _, err := readData(dir, name)
	return data, err
}

// readData is ReadData that also reports whether the file is a known one
// (and so was verified).
func readData(dir, name string) ([]byte, bool, error) {
	path := name
	if !filepath.IsAbs(name) {
		path = filepath.Join(dir, name)
	}
	var known *DataFile
	for i := range KnownData {
		if KnownData[i].Name == filepath.Base(name) {
			known = &KnownData[i]
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "no such file"
		}
		if known != nil {
			return nil, false, fmt.Errorf("data file %s: %s (%s; source: %s; set data_dir in the config, -data or $%s)", path, msg, known.What, known.Source, DataEnv)
		}
		return nil, false, fmt.Errorf("data file %s: %s", path, msg)
	}
	if known != nil {
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != known.SHA256 {
			return nil, false, fmt.Errorf("data file %s: SHA-256 %s, want %s: the file is corrupt or a different version (source: %s)", path, got[:16]+"…", known.SHA256[:16]+"…", known.Source)
		}
	}
	return data, known != nil, nil
}

// ReadData reads a data file as the package function ReadData does and
// records it (name, SHA-256, whether its checksum was known) for the
// manifest and the summary.
func (e *Env) ReadData(name string) ([]byte, error) {
	data, known, err := readData(e.DataDir, name)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	rec := results.DataRecord{File: name, SHA256: hex.EncodeToString(sum[:]), Checked: known}
	if known {
		rec.Note = "SHA-256 of the file matches the published data set"
	} else {
		rec.Note = "a user's file: no checksum is known for it"
	}
	e.RecordData(rec)
	return data, nil
}

// RecordData records a data file read by the experiment, replacing an
// earlier record of the same file (an experiment that verifies what it
// extracts from a file records it again with Checked and a Note saying how).
func (e *Env) RecordData(r results.DataRecord) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := range e.data {
		if e.data[i].File == r.File {
			e.data[i] = r
			return
		}
	}
	e.data = append(e.data, r)
}

// DataRecords returns the data files recorded so far.
func (e *Env) DataRecords() []results.DataRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]results.DataRecord{}, e.data...)
}

// DataName returns the name that the figures of the run whose results are
// in dir give the data they were drawn from: text, the text's own name for
// them ("Old Faithful"), when every data file the run read matched its
// published checksum, and otherwise the base names of the files no checksum
// verified (a user's data), joined by " and ", with own true. It reads the
// data records of dir's summary.json (Env.WriteSummary); a run that read no
// file keeps text. Titles and labels drawn from a run on other data than
// the text's thus name that data, never the text's.
func DataName(dir, text string) (name string, own bool, err error) {
	s, err := results.ReadSummary(filepath.Join(dir, results.SummaryFile))
	if err != nil {
		return "", false, fmt.Errorf("the data of the figures: %w", err)
	}
	var names []string
	for _, d := range s.Data {
		if !d.Checked {
			names = append(names, filepath.Base(d.File))
		}
	}
	if len(names) == 0 {
		return text, false, nil
	}
	return strings.Join(names, " and "), true, nil
}
