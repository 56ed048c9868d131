package console

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"salaula/internal/apierr"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// Contact message statuses: a message is open until an operator marks it handled.
const (
	MessageOpen    = "open"
	MessageHandled = "handled"
)

// MaxNoteLength is the longest note an operator can keep on a message.
const MaxNoteLength = 2000

// MessageFilter narrows the inbox: Subject one of validate.ContactSubjects,
// Status open or handled, Q the start of the address, of its domain (after
// the @), of the first name or of the last name, any letter case.
type MessageFilter = store.MessageFilter

// MessageFilters are the query parameters the messages list takes.
var MessageFilters = []string{"subject", "status", "q"}

// ParseMessageFilter checks raw filter values and makes them canonical.
func ParseMessageFilter(raw map[string]string) (MessageFilter, error) {
	var f MessageFilter
	var err error
	if f.Subject, err = oneOf("subject", raw["subject"], validate.ContactSubjects...); err != nil {
		return f, err
	}
	if f.Status, err = oneOf("status", raw["status"], MessageOpen, MessageHandled); err != nil {
		return f, err
	}
	f.Q, err = searchText(raw["q"])
	return f, err
}

// Message is one contact message with its inbox state.
type Message = store.InboxMessage

func messageCreated(m Message) time.Time { return m.CreatedAt }
func messageEmail(m Message) string      { return m.Email }
func messageTie(m Message, _ string) string {
	return m.ID
}

// ListMessages answers one page of the inbox.
func ListMessages(ctx context.Context, db *store.DB, f MessageFilter, p Paging) (*Page[Message], error) {
	return list(ctx, messageLister(db, f), func(ctx context.Context) (store.Total, error) { return db.CountMessages(ctx, f) },
		sortKeys, p, messageCreated, messageEmail, messageTie)
}

// EachMessage calls fn for every message matching f in the order of sort
// (oldest first when empty), one row in memory at a time.
func EachMessage(ctx context.Context, db *store.DB, f MessageFilter, sort string, fn func(Message) error) error {
	return each(ctx, messageLister(db, f), sortKeys, sort, fn)
}

func messageLister(db *store.DB, f MessageFilter) lister[Message] {
	return func(ctx context.Context, o store.ListOrder, fn func(Message) error) error {
		return db.ListMessages(ctx, f, o, fn)
	}
}

// MessageUpdate is what an operator changes on a message; a nil field is
// left as it is.
type MessageUpdate struct {
	Status *string `json:"status"`
	Note   *string `json:"note" text:"multiline"`
}

// UpdateMessage sets a message's status and/or note and appends the audit
// entry in the same transaction. It returns the message as stored, ErrNotFound
// for an unknown id, or an Invalid error.
func UpdateMessage(ctx context.Context, db *store.DB, by Actor, id string, u MessageUpdate) (*Message, error) {
	if u.Status == nil && u.Note == nil {
		return nil, apierr.New(apierr.Invalid, `Send "status" ("open" or "handled") and/or "note"`)
	}
	if u.Status != nil && *u.Status != MessageOpen && *u.Status != MessageHandled {
		return nil, apierr.New(apierr.Invalid, `status must be "open" or "handled"`)
	}
	if u.Note != nil {
		note := strings.TrimSpace(*u.Note)
		if !utf8.ValidString(note) || utf8.RuneCountInString(note) > MaxNoteLength {
			return nil, apierr.New(apierr.Invalid, "The note can be at most 2000 characters")
		}
		u.Note = &note
	}
	var out Message
	err := db.InTx(ctx, func(tx *store.Tx) error {
		before, err := tx.InboxMessageForUpdate(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		after := before
		detail := map[string]any{}
		if u.Status != nil && *u.Status != before.Status {
			after.Status = *u.Status
			after.HandledAt = nil
			if after.Status == MessageHandled {
				now := store.Now()
				after.HandledAt = &now
			}
			detail["status"] = map[string]string{"from": before.Status, "to": after.Status}
		}
		if u.Note != nil && *u.Note != before.Note {
			after.Note = *u.Note
			detail["note"] = map[string]string{"from": before.Note, "to": after.Note}
		}
		out = after
		if len(detail) == 0 {
			return nil // nothing changed, nothing to record
		}
		if err := tx.SetInboxState(ctx, id, after.Status, after.Note, after.HandledAt); err != nil {
			return err
		}
		return store.AppendAudit(ctx, tx, &store.AuditEntry{ActorID: by.ID, ActorEmail: by.Email, IP: by.IP,
			Action: "message.update", TargetType: "contact_message", TargetID: id, Detail: detail})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
