package config

import (
	"fmt"

	"github.com/BurntSushi/toml"
)

// Settings is the top-level settings key of every config: how the
// config's settings stand to those of the text it reproduces. The report
// judges an artefact on the runs of the text's settings, else on those of
// reduced settings (saying so), and shows the runs of settings of ours in
// the document's extensions table, their claims of the text judged as
// claims of ours.
type Settings = Choice[settingsValues]

type settingsValues struct{}

// Values of Settings.
const (
	// SettingsText: the text's settings (its repetitions, instances,
	// seeds, sizes and iterations); its claims give the artefact's verdict.
	SettingsText Settings = "text"
	// SettingsReduced: the text's procedure on fewer repetitions,
	// instances, seeds or iterations than the text's, which the config's
	// settings_note names; its claims are judged, and the verdict says it
	// is on reduced settings.
	SettingsReduced Settings = "reduced"
	// SettingsOurs: a setting of ours (another model, schedule, stop
	// rule, penalty or data; an experiment the text does not make): its
	// claims of the text are claims of ours, extensions.
	SettingsOurs Settings = "ours"
)

func (settingsValues) values() []string {
	return []string{string(SettingsText), string(SettingsReduced), string(SettingsOurs)}
}

// SettingsKey and SettingsNoteKey are the top-level keys that declare a
// config's settings (see Settings).
const (
	SettingsKey     = "settings"
	SettingsNoteKey = "settings_note"
)

// Resolve returns the settings a config file declares and their note, s
// and note as loaded (the file's keys or a base's; "" where none sets
// them): "" is "text" for a config without a base, and an error for a
// variant, which must declare its own settings (a cheaper or changed
// variant of the text's config is seldom of the text's settings, so
// inheriting them would mislabel it); a file that declares other
// settings than its base does not inherit the base's note. A "reduced" config must say in its
// note what is reduced, and "text" needs no note. The [quick] table may not
// set either key: the settings describe the file. Errors name the line of
// the key.
func Resolve(path string, s Settings, note string) (Settings, string, error) {
	chain, err := readChain(path, nil)
	if err != nil {
		return "", "", err
	}
	last := chain[len(chain)-1]
	for _, l := range chain {
		var head struct {
			Quick map[string]any `toml:"quick"`
		}
		if _, err := toml.Decode(l.text, &head); err != nil {
			return "", "", l.decodeError(err, false)
		}
		for _, k := range []string{SettingsKey, SettingsNoteKey} {
			if _, ok := head.Quick[k]; ok {
				return "", "", &Error{Path: l.path, Line: l.keyLine(toml.Key{"quick", k}), Key: "quick." + k,
					Msg: fmt.Sprintf("quick.%s: the [quick] table may not set %s: it says how the file's settings stand to the text's (set it at the top)", k, k)}
			}
		}
	}
	var own map[string]any
	if _, err := toml.Decode(last.text, &own); err != nil {
		return "", "", last.decodeError(err, false)
	}
	_, setS := own[SettingsKey]
	_, setN := own[SettingsNoteKey]
	if !setS && last.base != "" {
		return "", "", &Error{Path: last.path, Line: last.keyLine(toml.Key{BaseKey}), Key: SettingsKey,
			Msg: fmt.Sprintf("settings: a variant (base = %q) declares its own settings relative to the text: settings = %s (with settings_note = \"...\" saying what is reduced or ours)", last.base, choices(settingsValues{}.values()))}
	}
	if setS && !setN && own[SettingsKey] != inherited(chain[:len(chain)-1]) {
		note = "" // another declaration than the base's: not the base's note
	}
	if s == "" {
		s = SettingsText
	}
	noteErr := func(why string) error {
		line := 0
		for i := len(chain) - 1; i >= 0 && line == 0; i-- {
			line = chain[i].keyLine(toml.Key{SettingsKey})
			if line > 0 {
				last = chain[i]
			}
		}
		return &Error{Path: last.path, Line: line, Key: SettingsNoteKey, Msg: fmt.Sprintf("settings = %q: %s", s, why)}
	}
	switch {
	case s == SettingsReduced && note == "":
		return "", "", noteErr(`set settings_note = "..." to what is fewer than the text's (e.g. "3 repetitions, the thesis's 10")`)
	case s == SettingsText && note != "":
		return "", "", noteErr("the text's settings take no settings_note (is the config \"reduced\" or \"ours\"?)")
	}
	return s, note, nil
}

// inherited returns the settings the last of the files of chain that sets
// them declares, or nil.
func inherited(chain []*loader) any {
	for i := len(chain) - 1; i >= 0; i-- {
		var head map[string]any
		if _, err := toml.Decode(chain[i].text, &head); err == nil {
			if v, ok := head[SettingsKey]; ok {
				return v
			}
		}
	}
	return nil
}
