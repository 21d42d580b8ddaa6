package command

// expectedLoss is, for every sample and target B, exactly the loss kinds
// ("kind action") that A -> B and B -> A report together. Each kind is a
// rule of docs/convert.md; the round trip's comparison of the models
// (essence, holds) checks that nothing else changed. In short:
//
//   - ash keeps no thinking, images, files, usage, model or stop reason per
//     message; compactions of OpenCode come back as summary messages
//     ("compaction converted").
//   - goat keeps no thinking, usage, stop reason, error flag, compaction or
//     provider, one text block per assistant turn; checkpoints only in goat.
//   - flat keeps no title or session model; a compaction needs a first kept
//     entry ("compaction-first-kept moved"); a fork needs the parent's path.
//   - OpenCode keeps no foreign fields; a lone child loses its parent link;
//     roles it lacks (pi's bash runs) become user messages ("converted").
//   - tree (pi) keeps nearly everything; other layouts' compactions get a
//     first kept entry, sub-agent runs and side files are dropped.
//   - linear targets flatten branches and drop sub-agent runs and side files.
//   - "*-field dropped" counts members of another layout's entries, messages,
//     blocks or headers that the model has no slot for (Extras, and side
//     data such as OpenCode's step parts and side files); a layout's notes
//     on its own spelling (Source.Private) are never a loss.
var expectedLoss = map[string][]string{
	"ash/all-entry-types -> ash":                  {},
	"ash/all-entry-types -> flat":                 {"session-model dropped", "tool-call dropped", "tool-result dropped"},
	"ash/all-entry-types -> goat":                 {"provider dropped", "session-field dropped", "tool-call dropped", "tool-result dropped"},
	"ash/all-entry-types -> opencode":             {"block-field dropped", "message-field dropped", "session-field dropped"},
	"ash/all-entry-types -> opencode-export":      {"block-field dropped", "message-field dropped", "session-field dropped"},
	"ash/all-entry-types -> tree":                 {},
	"ash/external-ids -> ash":                     {},
	"ash/external-ids -> flat":                    {"entry-field dropped", "session-model dropped", "stop-reason dropped", "usage dropped"},
	"ash/external-ids -> goat":                    {"entry-field dropped", "provider dropped", "session-field dropped"},
	"ash/external-ids -> opencode":                {"block-field dropped", "entry-field dropped", "message-field dropped", "message-model dropped", "session-field dropped", "usage dropped"},
	"ash/external-ids -> opencode-export":         {"block-field dropped", "entry-field dropped", "message-field dropped", "message-model dropped", "session-field dropped", "usage dropped"},
	"ash/external-ids -> tree":                    {"entry-field dropped", "stop-reason dropped"},
	"ash/generated-v2 -> ash":                     {},
	"ash/generated-v2 -> flat":                    {"branch flattened", "entry-field dropped", "message-author dropped", "message-token-count dropped", "off-path-entry dropped", "session-field dropped", "session-model dropped", "sidechain-entry dropped", "stop-reason dropped", "usage dropped"},
	"ash/generated-v2 -> goat":                    {"branch flattened", "entry-field dropped", "off-path-entry dropped", "provider dropped", "session-field dropped", "sidechain-entry dropped"},
	"ash/generated-v2 -> opencode":                {"block-field dropped", "branch flattened", "entry-field dropped", "message-field dropped", "message-model dropped", "off-path-entry dropped", "session-field dropped", "sidechain-entry dropped", "usage dropped"},
	"ash/generated-v2 -> opencode-export":         {"block-field dropped", "branch flattened", "entry-field dropped", "message-field dropped", "message-model dropped", "off-path-entry dropped", "session-field dropped", "sidechain-entry dropped", "usage dropped"},
	"ash/generated-v2 -> tree":                    {"compaction-first-kept moved", "custom-entry dropped", "entry-field dropped", "message-author dropped", "session-field dropped", "sidechain-entry dropped", "stop-reason dropped", "subagent-entry converted"},
	"ash/plain-chat -> ash":                       {},
	"ash/plain-chat -> flat":                      {"session-model dropped", "stop-reason dropped", "usage dropped"},
	"ash/plain-chat -> goat":                      {"provider dropped", "session-field dropped"},
	"ash/plain-chat -> opencode":                  {"block-field dropped", "message-field dropped", "message-model dropped", "session-field dropped", "usage dropped"},
	"ash/plain-chat -> opencode-export":           {"block-field dropped", "message-field dropped", "message-model dropped", "session-field dropped", "usage dropped"},
	"ash/plain-chat -> tree":                      {"stop-reason dropped"},
	"flat/a1bea1d6 -> ash":                        {"image-block dropped", "message-model dropped", "session-field dropped", "session-model dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"flat/a1bea1d6 -> flat":                       {},
	"flat/a1bea1d6 -> goat":                       {"parent-link dropped", "parent-path dropped", "session-field dropped", "session-model dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"flat/a1bea1d6 -> opencode":                   {"block-field dropped", "message-field dropped", "session-field dropped", "session-title dropped"},
	"flat/a1bea1d6 -> opencode-export":            {"block-field dropped", "message-field dropped", "session-field dropped", "session-title dropped"},
	"flat/a1bea1d6 -> tree":                       {"parent-link dropped"},
	"flat/f487536d -> ash":                        {"compaction-tokens-after dropped", "image-block dropped", "message-model dropped", "session-field dropped", "session-model dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"flat/f487536d -> flat":                       {},
	"flat/f487536d -> goat":                       {"compaction-entry dropped", "is-error dropped", "session-field dropped", "session-model dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"flat/f487536d -> opencode":                   {"block-field dropped", "compaction converted", "compaction-first-kept moved", "message-field dropped", "session-field dropped", "session-title dropped"},
	"flat/f487536d -> opencode-export":            {"block-field dropped", "compaction converted", "compaction-first-kept moved", "message-field dropped", "session-field dropped", "session-title dropped"},
	"flat/f487536d -> tree":                       {},
	"goat/generated -> ash":                       {"block-field dropped", "checkpoint dropped", "image-block dropped", "provider dropped", "session-field dropped", "transcript:assistant-entry dropped"},
	"goat/generated -> flat":                      {"block-field dropped", "checkpoint dropped", "parent-link dropped", "session-field dropped", "session-model dropped", "sidechain-entry dropped", "stop-reason dropped", "usage dropped"},
	"goat/generated -> goat":                      {},
	"goat/generated -> opencode":                  {"block-field dropped", "checkpoint dropped", "message-field dropped", "session-field dropped", "sidechain-entry dropped", "usage dropped"},
	"goat/generated -> opencode-export":           {"block-field dropped", "checkpoint dropped", "message-field dropped", "session-field dropped", "sidechain-entry dropped", "usage dropped"},
	"goat/generated -> tree":                      {"block-field dropped", "checkpoint dropped", "session-field dropped", "sidechain-entry dropped", "stop-reason dropped"},
	"opencode-export/child -> ash":                {"block-field dropped", "entry-field dropped", "message-field dropped", "message-model dropped", "session-field dropped", "stop-reason dropped", "usage dropped"},
	"opencode-export/child -> flat":               {"block-field dropped", "entry-field dropped", "message-field dropped", "parent-link dropped", "session-field dropped", "session-title dropped"},
	"opencode-export/child -> goat":               {"block-field dropped", "entry-field dropped", "message-field dropped", "session-field dropped", "stop-reason dropped", "usage dropped"},
	"opencode-export/child -> opencode":           {"parent-link dropped"},
	"opencode-export/child -> opencode-export":    {},
	"opencode-export/child -> tree":               {"block-field dropped", "entry-field dropped", "message-field dropped", "session-field dropped"},
	"opencode-export/parent -> ash":               {"block-field dropped", "compaction converted", "entry-field dropped", "message-field dropped", "message-model dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"opencode-export/parent -> flat":              {"block-field dropped", "compaction converted", "compaction-first-kept moved", "entry-field dropped", "message-field dropped", "session-field dropped", "session-title dropped"},
	"opencode-export/parent -> goat":              {"block-field dropped", "compaction-entry dropped", "entry-field dropped", "is-error dropped", "message-field dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"opencode-export/parent -> opencode":          {},
	"opencode-export/parent -> opencode-export":   {},
	"opencode-export/parent -> tree":              {"block-field dropped", "compaction converted", "compaction-first-kept moved", "entry-field dropped", "message-field dropped", "session-field dropped"},
	"opencode/legacy-0.5.29 -> ash":               {"block-field dropped", "message-field dropped", "session-field dropped"},
	"opencode/legacy-0.5.29 -> flat":              {"block-field dropped", "message-field dropped", "session-field dropped", "session-title dropped"},
	"opencode/legacy-0.5.29 -> goat":              {"block-field dropped", "message-field dropped", "session-field dropped"},
	"opencode/legacy-0.5.29 -> opencode":          {},
	"opencode/legacy-0.5.29 -> opencode-export":   {},
	"opencode/legacy-0.5.29 -> tree":              {"block-field dropped", "message-field dropped", "session-field dropped"},
	"opencode/sqlite-1.2.1 -> ash":                {"block-field dropped", "compaction converted", "entry-field dropped", "file-block dropped", "message-field dropped", "message-model dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"opencode/sqlite-1.2.1 -> flat":               {"block-field dropped", "compaction converted", "compaction-first-kept moved", "entry-field dropped", "file-without-data dropped", "message-field dropped", "parent-link dropped", "session-field dropped", "session-title dropped"},
	"opencode/sqlite-1.2.1 -> goat":               {"block-field dropped", "child-session dropped", "compaction-entry dropped", "entry-field dropped", "file-block dropped", "is-error dropped", "message-field dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"opencode/sqlite-1.2.1 -> opencode":           {},
	"opencode/sqlite-1.2.1 -> opencode-export":    {},
	"opencode/sqlite-1.2.1 -> tree":               {"block-field dropped", "compaction converted", "compaction-first-kept moved", "entry-field dropped", "message-field dropped", "session-field dropped"},
	"opencode/tree-1.1.34 -> ash":                 {"block-field dropped", "compaction converted", "entry-field dropped", "file-block dropped", "message-field dropped", "message-model dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"opencode/tree-1.1.34 -> flat":                {"block-field dropped", "compaction converted", "compaction-first-kept moved", "entry-field dropped", "file-without-data dropped", "message-field dropped", "parent-link dropped", "session-field dropped", "session-title dropped"},
	"opencode/tree-1.1.34 -> goat":                {"block-field dropped", "child-session dropped", "compaction-entry dropped", "entry-field dropped", "file-block dropped", "is-error dropped", "message-field dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "usage dropped"},
	"opencode/tree-1.1.34 -> opencode":            {},
	"opencode/tree-1.1.34 -> opencode-export":     {},
	"opencode/tree-1.1.34 -> tree":                {"block-field dropped", "compaction converted", "compaction-first-kept moved", "entry-field dropped", "message-field dropped", "session-field dropped"},
	"tree/before-compaction -> ash":               {"bash-message converted", "block-field dropped", "message-model dropped", "model_change-entry dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "thinking_level_change-entry dropped", "usage dropped"},
	"tree/before-compaction -> flat":              {"bash-message dropped", "block-field dropped", "message-api dropped", "message-details dropped", "model_change-entry dropped", "parent-link dropped", "session-model dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/before-compaction -> goat":              {"bash-message dropped", "block-field dropped", "compaction-entry dropped", "is-error dropped", "model_change-entry dropped", "parent-path dropped", "provider dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "thinking-level dropped", "thinking_level_change-entry dropped", "usage dropped"},
	"tree/before-compaction -> opencode":          {"bash-message converted", "block-field dropped", "compaction converted", "compaction-first-kept moved", "message-api dropped", "message-field dropped", "model_change-entry dropped", "session-field dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/before-compaction -> opencode-export":   {"bash-message converted", "block-field dropped", "compaction converted", "compaction-first-kept moved", "message-api dropped", "message-field dropped", "model_change-entry dropped", "session-field dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/before-compaction -> tree":              {},
	"tree/large-session -> ash":                   {"block-field dropped", "message-model dropped", "model_change-entry dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "thinking_level_change-entry dropped", "usage dropped"},
	"tree/large-session -> flat":                  {"block-field dropped", "message-api dropped", "message-details dropped", "model_change-entry dropped", "session-model dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/large-session -> goat":                  {"block-field dropped", "is-error dropped", "model_change-entry dropped", "provider dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "thinking-level dropped", "thinking_level_change-entry dropped", "usage dropped"},
	"tree/large-session -> opencode":              {"block-field dropped", "message-api dropped", "message-field dropped", "model_change-entry dropped", "session-field dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/large-session -> opencode-export":       {"block-field dropped", "message-api dropped", "message-field dropped", "model_change-entry dropped", "session-field dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/large-session -> tree":                  {},
	"tree/pi-v3-branches -> ash":                  []string{"bash-message converted", "branch_summary-entry dropped", "custom-entry dropped", "label-entry dropped", "message-model dropped", "model_change-entry dropped", "session-field dropped", "session_info-entry dropped", "stop-reason dropped", "thinking-block dropped", "thinking_level_change-entry dropped", "usage dropped"},
	"tree/pi-v3-branches -> flat":                 []string{"bash-message dropped", "branch flattened", "compaction-details dropped", "label-entry dropped", "message-api dropped", "model_change-entry dropped", "off-path-entry dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/pi-v3-branches -> goat":                 []string{"bash-message dropped", "branch flattened", "compaction-entry dropped", "is-error dropped", "label-entry dropped", "model_change-entry dropped", "off-path-entry dropped", "session-field dropped", "stop-reason dropped", "thinking-block dropped", "thinking_level_change-entry dropped", "usage dropped"},
	"tree/pi-v3-branches -> opencode":             []string{"bash-message converted", "block-field dropped", "branch flattened", "compaction converted", "compaction-first-kept moved", "label-entry dropped", "message-api dropped", "message-field dropped", "model_change-entry dropped", "off-path-entry dropped", "session-field dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/pi-v3-branches -> opencode-export":      []string{"bash-message converted", "block-field dropped", "branch flattened", "compaction converted", "compaction-first-kept moved", "label-entry dropped", "message-api dropped", "message-field dropped", "model_change-entry dropped", "off-path-entry dropped", "session-field dropped", "thinking-signature dropped", "thinking_level_change-entry dropped"},
	"tree/pi-v3-branches -> tree":                 []string{},
	"tree/prompt-cache-replay -> ash":             {"message-model dropped", "session-field dropped", "stop-reason dropped", "usage dropped"},
	"tree/prompt-cache-replay -> flat":            {"message-api dropped", "session-model dropped"},
	"tree/prompt-cache-replay -> goat":            {"provider dropped", "session-field dropped", "stop-reason dropped", "thinking-level dropped", "usage dropped"},
	"tree/prompt-cache-replay -> opencode":        {"block-field dropped", "message-api dropped", "message-field dropped", "session-field dropped"},
	"tree/prompt-cache-replay -> opencode-export": {"block-field dropped", "message-api dropped", "message-field dropped", "session-field dropped"},
	"tree/prompt-cache-replay -> tree":            {},
}
