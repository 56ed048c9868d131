package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// FlowState is a PKCE flow started by an e-mailed link: opening the link
// issues a one-time auth code, which the client exchanges with its verifier.
type FlowState struct {
	ID                  string
	UserID              string
	Kind                string // "signup" or "recovery"
	CodeChallenge       string
	CodeChallengeMethod string // "s256" or "plain"
	AuthCodeIssuedAt    *time.Time
}

// AddFlowState stores a flow for the e-mailed token whose hash is tokenHash.
func (db *DB) AddFlowState(ctx context.Context, f *FlowState, tokenHash string) error {
	f.ID = NewID()
	now := Now()
	// Old flows of the user are of no further use.
	if _, err := db.Exec(ctx, `DELETE FROM flow_states WHERE user_id = ? AND created_at < ?`, f.UserID, now.Add(-24*time.Hour)); err != nil {
		return err
	}
	_, err := db.Exec(ctx, `INSERT INTO flow_states (id, user_id, kind, token_hash, code_challenge, code_challenge_method, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.UserID, f.Kind, tokenHash, f.CodeChallenge, f.CodeChallengeMethod, now)
	return err
}

// FlowStateByToken returns the unused flow of an e-mailed token; ErrNotFound when it has none.
func (db *DB) FlowStateByToken(ctx context.Context, tokenHash string) (*FlowState, error) {
	return scanFlowState(db.QueryRow(ctx, `SELECT id, user_id, kind, code_challenge, code_challenge_method, auth_code_issued_at FROM flow_states WHERE token_hash = ? AND used_at IS NULL`, tokenHash))
}

// FlowStateByAuthCode returns the unused flow whose auth code hash is codeHash; ErrNotFound when none.
func (db *DB) FlowStateByAuthCode(ctx context.Context, codeHash string) (*FlowState, error) {
	return scanFlowState(db.QueryRow(ctx, `SELECT id, user_id, kind, code_challenge, code_challenge_method, auth_code_issued_at FROM flow_states WHERE auth_code_hash = ? AND used_at IS NULL`, codeHash))
}

func scanFlowState(row *sql.Row) (*FlowState, error) {
	var f FlowState
	var issued sql.NullTime
	err := row.Scan(&f.ID, &f.UserID, &f.Kind, &f.CodeChallenge, &f.CodeChallengeMethod, &issued)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if issued.Valid {
		t := issued.Time.UTC()
		f.AuthCodeIssuedAt = &t
	}
	return &f, err
}

// IssueAuthCode gives the flow its one-time auth code (by hash), once.
func (db *DB) IssueAuthCode(ctx context.Context, flowID, codeHash string, now time.Time) error {
	res, err := db.Exec(ctx, `UPDATE flow_states SET auth_code_hash = ?, auth_code_issued_at = ? WHERE id = ? AND auth_code_hash IS NULL AND used_at IS NULL`, codeHash, now, flowID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrNotFound
	}
	return nil
}

// UseFlowState spends the flow, once: ErrNotFound when already spent.
func (db *DB) UseFlowState(ctx context.Context, flowID string, now time.Time) error {
	res, err := db.Exec(ctx, `UPDATE flow_states SET used_at = ? WHERE id = ? AND used_at IS NULL`, now, flowID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrNotFound
	}
	return nil
}
