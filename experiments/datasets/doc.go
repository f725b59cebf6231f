// Package datasets reads the data files that experiments share: a numeric
// table (LoadMatrixCSV), one symbol sequence a line over an alphabet
// (ParseSequences), and the line and field splitting, quoting and error
// wording that a data-set-specific reader builds on (Lines, SplitComma,
// SplitBlanks, Quote, CSVError), and the one synthetic generator that two
// documents draw from, Beal's noisy shrinking spiral (Spiral; D'Souza's
// Fig. 3.3 grows a mixture on it too).
//
// Any experiment package may import it; a reader that only one data set
// needs (optdigits, the Alice text, the T-cell series) stays with its
// experiments. Every reader takes the file's name and its bytes (read them
// with experiments.Env.ReadData, which checks a known SHA-256) and fails
// with a single line that starts with the name and, where a line is at
// fault, its number and column: "u.csv:3:4: \"x\" is not a number".
package datasets
