package server

import (
	"net/http"

	"salaula/internal/referral"
	"salaula/internal/store"
)

// waitlistPlaced is the body of a successful waitlist-signup, new or
// repeated: the spec's success and message, with the person's place in
// the program's line and their personal link. Position and ShareURL are
// left out when the place could not be read (the sign-up is stored all
// the same).
type waitlistPlaced struct {
	Success  bool   `json:"success"`
	Message  string `json:"message"`
	Position int    `json:"position,omitempty"`
	ShareURL string `json:"shareUrl,omitempty"`
}

// placeInLine gives the stored sign-up su its place in line (code its
// new link code, ref the code of the link the page was opened with) and
// returns the answer to the sign-up.
func (s *Server) placeInLine(r *http.Request, su *store.WaitlistSignup, code, ref string) waitlistPlaced {
	out := waitlistPlaced{Success: true, Message: waitlistJoined["message"].(string)}
	p, err := referral.Enter(r.Context(), s.db, su.Email, su.Program, code, ref, s.clientIP(r))
	if err != nil {
		s.logger.Error("waitlist place in line (the sign-up is stored)", "err", err)
		return out
	}
	out.Position, out.ShareURL = p.Position, referral.ShareURL(s.cfg.PublicURL, su.PagePath, p.Code)
	return out
}
