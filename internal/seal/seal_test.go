package seal

import (
	"errors"
	"testing"
)

func TestSealOpensOnlyForItsSecretAndPurpose(t *testing.T) {
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
	for _, bad := range []string{"", "AAAA", "!!!", sealed[:len(sealed)-2] + "xx"} {
		if _, err := a.Open(bad); !errors.Is(err, ErrOpen) {
			t.Errorf("Open(%q): err = %v", bad, err)
		}
	}
	again, _ := a.Seal([]byte("totp secret"))
	if again == sealed {
		t.Error("two seals of one value are equal: the nonce is not random")
	}
}
