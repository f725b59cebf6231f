// Package config is the one configuration layer of every document: the
// strict TOML loader (Load: Go defaults ← the file ← its [quick] overlay,
// every key required to land in a field, errors as one line at the key's
// line), and the tables that more than one document uses, each declared
// once:
//
//   - [vb], [ml], [map]: one coordinate-ascent run and its stop rule
//     (FitSettings), with [vb.hyper], the hyperparameter schedule
//     (HyperSchedule);
//   - [search]: the birth/death search of any vb.Mover (SearchSettings).
//
// An experiment's config embeds experiments.Common and these tables; it
// declares only what is its own.
package config
