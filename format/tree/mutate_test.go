package tree

import (
	"bytes"
	"math/rand"
	"os"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

func dupKeys(v gjson.Result) bool {
	dup := false
	if v.IsObject() {
		seen := map[string]bool{}
		v.ForEach(func(k, x gjson.Result) bool {
			dup = dup || seen[k.String()] || dupKeys(x)
			seen[k.String()] = true
			return !dup
		})
	} else if v.IsArray() {
		v.ForEach(func(_, x gjson.Result) bool {
			dup = dup || dupKeys(x)
			return !dup
		})
	}
	return dup
}

// TestRoundTripMutations mutates single lines of the valid files at random
// (deterministic seed) and, for every mutant that still validates without
// errors, demands what TestRoundTrip demands of real files: the canonical
// encoding is the same JSON value and the written file the same bytes. It
// finds members whose presence or spelling the model cannot hold.
func TestRoundTripMutations(t *testing.T) {
	var seeds [][]byte
	for _, f := range []string{"testdata/valid/v3_all.jsonl", "testdata/valid/v3_omp.jsonl", "testdata/valid/v2_hook.jsonl", ownSamples + "/pi-v3-branches.jsonl"} {
		b, _ := os.ReadFile(f)
		seeds = append(seeds, b)
	}
	rng := rand.New(rand.NewSource(2))
	fails := 0
	tries := 0
	for i := 0; i < 100000 && tries < 1500 && fails < 8; i++ {
		seed := seeds[rng.Intn(len(seeds))]
		lines := bytes.Split(bytes.TrimSuffix(seed, []byte("\n")), []byte("\n"))
		k := rng.Intn(len(lines))
		l := bytes.Clone(lines[k])
		p := rng.Intn(len(l))
		switch rng.Intn(4) {
		case 0:
			l = append(l[:p:p], l[min(len(l), p+1+rng.Intn(10)):]...)
		case 1:
			l[p] = byte(rng.Intn(256))
		case 2:
			frags := []string{`""`, `false`, `true`, `null`, `0`, `-1`, `1.5`, `[]`, `{}`, `"x"`, `,"k":1`, `"`, `1e3`, `1e400`, `0.10000000000000000001`, `\u00e9`, `\/`}
			f := frags[rng.Intn(len(frags))]
			l = append(l[:p:p], append([]byte(f), l[p:]...)...)
		case 3:
			frags := []string{`""`, `false`, `null`, `0`, `[]`, `{}`, `"x"`}
			f := frags[rng.Intn(len(frags))]
			l = append(l[:p:p], append([]byte(f), l[min(len(l), p+1+rng.Intn(6)):]...)...)
		}
		if _, _, bad := jsonx.SyntaxError(l); bad || dupKeys(gjson.ParseBytes(l)) {
			continue // an object with a key twice is out of the model's reach
		}
		lines[k] = l
		in := append(bytes.Join(lines, []byte("\n")), '\n')
		r, err := Format{}.OpenReader("x", bytes.NewReader(in))
		if err != nil {
			continue
		}
		s, err := session.ReadAll(r)
		if err != nil {
			continue
		}
		rep := &report.Report{}
		_ = (Format{}).ValidateReader("x", bytes.NewReader(in), rep, format.ValidateOptions{Workers: 1})
		if rep.Errors() > 0 {
			continue
		}
		tries++
		enc := &encoder{version: s.Meta.Version}
		for _, e := range s.Entries {
			canon := enc.entry(e)
			src := lines[e.Line-1]
			if !jsonx.Equal(canon, src) {
				fails++
				t.Logf("canon differs:\n src %s\n got %s", src, canon)
				break
			}
			if m := jsonx.Merge(e.Raw, canon); !bytes.Equal(m, src) {
				fails++
				t.Logf("merge differs:\n src %s\n got %s", src, m)
				break
			}
		}
		var out bytes.Buffer
		if err := convert.WriteTo(Format{}, &out, &session.SliceReader{S: s}, format.WriteOptions{}, nil); err != nil || !bytes.Equal(out.Bytes(), in) {
			fails++
			ol := bytes.Split(out.Bytes(), []byte("\n"))
			for j := range lines {
				if j >= len(ol) || !bytes.Equal(ol[j], lines[j]) {
					o := []byte(nil)
					if j < len(ol) {
						o = ol[j]
					}
					t.Logf("written file differs (err %v) at line %d:\n src %s\n got %s", err, j+1, lines[j], o)
					break
				}
			}
		}
	}
	t.Logf("%d valid mutants", tries)
	if fails > 0 {
		t.Fatalf("%d of %d valid mutants did not round-trip", fails, tries)
	}
	if tries < 1000 {
		t.Fatalf("only %d valid mutants: the test exercises too little", tries)
	}
}
