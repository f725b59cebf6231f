// Package results reads and writes the files an experiment leaves behind and
// `vbw plot` reads back: tidy CSV tables, summary.json, manifest.json, and the
// resolved config beside them.
//
// Layout (see Dir and the file-name constants):
//
//	<out>/chapter3/synthetic/
//	  manifest.json   provenance: experiment, config hash, seeds, build, timings, run status
//	  config.toml     the resolved config that was run
//	  runs.csv        tidy rows, one value per row
//	  trace.csv       bound traces
//	  summary.json    aggregates across seeds, acceptance checks, warnings
//	  fig3_4.svg ...  figures, rebuilt from the files above only
//
// Every file is written atomically (WriteFileAtomic): an interrupted run
// leaves either the previous file or the new one, never a part of one.
//
// Numbers are written so that they read back exactly. In CSV, floats use
// strconv.FormatFloat(x, 'g', -1, 64) and non-finite values are written as
// NaN, +Inf and -Inf. JSON has no NaN or Inf: Summary writes them as null,
// adds a warning naming the value, and reads null back as NaN.
//
// The package imports only the standard library.
package results
