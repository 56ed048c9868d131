package seal

import (
	"errors"
	"testing"
)

func TestSealOpensOnlyForItsSecretAndPurpose(t *testing.T) {
	t.Parallel()
	secret := []byte("server-secret-server-secret-server!")
	a, _ := New(secret, "purpose a")
	b, _ := New(secret, "purpose b")
	other, _ := New([]byte("another-secret-another-secret-xx"), "purpose a")
	sealed, err := a.Seal([]byte("totp secret"))
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := a.Open(sealed); err != nil || string(plain) != "totp secret" {
		t.Fatalf("Open = %q, %v", plain, err)
	}
	for name, box := range map[string]*Box{"other purpose": b, "other secret": other} {
		if _, err := box.Open(sealed); !errors.Is(err, ErrOpen) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// One character of the sealed text changed, in the middle where every
	// bit counts (a changed last character may only touch padding bits).
	mid := len(sealed) / 2
	swap := byte('A')
	if sealed[mid] == 'A' {
		swap = 'B'
	}
	tampered := sealed[:mid] + string(swap) + sealed[mid+1:]
	for _, bad := range []string{"", "AAAA", "!!!", tampered} {
		if _, err := a.Open(bad); !errors.Is(err, ErrOpen) {
			t.Errorf("Open(%q): err = %v", bad, err)
		}
	}
	again, _ := a.Seal([]byte("totp secret"))
	if again == sealed {
		t.Error("two seals of one value are equal: the nonce is not random")
	}
}
