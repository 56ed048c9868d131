package account

import (
	"context"

	"salaula/internal/store"
)

// Kinds of consent records.
const (
	KindTerms             = "terms"
	KindPrivacy           = "privacy_policy"
	KindWardrobeClearance = "wardrobe_clearance"
	KindParentalConsent   = "parental_consent"
)

// Versions of the documents a person accepts: the 'last updated' date of the
// Terms and Conditions and of the Privacy Policy (11/09/2025, spec section 9,
// LEGAL_LAST_UPDATED in web/src/config/constants.ts), written as ISO dates.
// When a document changes, its date changes here and on the page together.
const (
	TermsVersion   = "2025-09-11"
	PrivacyVersion = "2025-09-11"
)

// Ticks are the consent checkboxes of one onboarding submit.
type Ticks struct {
	// Terms: the Terms and Conditions box (it covers the Privacy Policy).
	Terms bool
	// ParentalConsent: a parent or guardian agreed (people under 18).
	ParentalConsent bool
	// WardrobeClearance: the Wardrobe Clearance Program box; nil when the
	// form has none (the seller form).
	WardrobeClearance *bool
}

// RecordTicks stores what userID agreed to in an onboarding submit: the
// Terms and the Privacy Policy in their current versions, a parent's
// consent, and joining the Wardrobe Clearance Program (untick withdraws it).
func (r *Rules) RecordTicks(ctx context.Context, userID string, t Ticks) error {
	now := r.now()
	var give []store.Consent
	if t.Terms {
		give = append(give, store.Consent{Kind: KindTerms, Version: TermsVersion}, store.Consent{Kind: KindPrivacy, Version: PrivacyVersion})
	}
	if t.ParentalConsent {
		give = append(give, store.Consent{Kind: KindParentalConsent, Version: TermsVersion})
	}
	if t.WardrobeClearance != nil && *t.WardrobeClearance {
		give = append(give, store.Consent{Kind: KindWardrobeClearance, Version: TermsVersion})
	}
	if len(give) > 0 {
		if err := r.DB.RecordConsents(ctx, userID, now, give...); err != nil {
			return err
		}
	}
	if t.WardrobeClearance != nil && !*t.WardrobeClearance {
		return r.DB.WithdrawConsent(ctx, userID, KindWardrobeClearance, now)
	}
	return nil
}
