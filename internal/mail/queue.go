package mail

import (
	"context"

	"salaula/internal/store"
)

// Queue queues m inside tx when mailer is the outbox (so the e-mail is kept
// exactly when the change is), else hands it to mailer.
func Queue(ctx context.Context, mailer Mailer, tx *store.Tx, m Message) error {
	if q, ok := mailer.(interface {
		Enqueue(context.Context, *store.Tx, Message) error
	}); ok {
		return q.Enqueue(ctx, tx, m)
	}
	return mailer.Send(ctx, m)
}
