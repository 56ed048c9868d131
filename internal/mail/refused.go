package mail

import (
	"errors"
	"net/textproto"
)

// Refused is a mail server's permanent refusal of an e-mail's recipient:
// a 5xx answer to RCPT TO. Such an e-mail is not tried again, and its
// address is listed as bouncing (store.MarkEmailBounced).
type Refused struct {
	Err error
}

func (r *Refused) Error() string { return "recipient refused: " + r.Err.Error() }
func (r *Refused) Unwrap() error { return r.Err }

// refusal returns err as a *Refused when it is a 5xx SMTP answer.
func refusal(err error) error {
	var te *textproto.Error
	if errors.As(err, &te) && te.Code >= 500 && te.Code < 600 {
		return &Refused{Err: err}
	}
	return err
}
