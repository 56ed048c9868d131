package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"salaula/internal/account"
	"salaula/internal/analytics"
	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// Messages of the onboarding functions when the caller has no session
// (spec section 6) or names another account.
const (
	msgProfileNoSession = "Could not get user session. Please log in again."
	msgSellerNoSession  = "You must be logged in."
	msgNotYourAccount   = "You can only set up your own profile: userId must be the signed-in user's id."
)

// onboardingCaller authenticates an onboarding or account call; without a valid session
// it answers 401 with noSession and returns nil.
func (s *Server) onboardingCaller(w http.ResponseWriter, r *http.Request, noSession string) *token.Claims {
	claims, err := s.authenticate(r.Context(), r)
	if errors.Is(err, errCheckingSession) {
		writeFunctionError(w, http.StatusServiceUnavailable, msgServiceBusy, nil)
		return nil
	}
	if err != nil {
		writeFunctionError(w, http.StatusUnauthorized, noSession, nil)
		return nil
	}
	return claims
}

// missingObject returns the index of the first path with no stored object in
// user-media, or -1 when all exist.
func (s *Server) missingObject(ctx context.Context, paths []string) (int, error) {
	for i, p := range paths {
		_, err := s.media.Stat(ctx, media.Key(media.Bucket, p))
		if errors.Is(err, media.ErrNotFound) {
			return i, nil
		}
		if err != nil {
			return 0, err
		}
	}
	return -1, nil
}

// abandonedUploadAge is how old an upload no profile refers to must be
// before a save of its owner's profile deletes it: old enough that it is not
// waiting for the other half of the combined form.
const abandonedUploadAge = time.Hour

// removeUnreferenced deletes, after a save of the caller's profile, the
// images it referred to before and no longer does, and the caller's uploads
// older than abandonedUploadAge that it does not refer to.
func (s *Server) removeUnreferenced(ctx context.Context, userID string, before []string) {
	p, err := s.db.ProfileByUser(ctx, userID)
	if err != nil {
		s.logger.Error("image cleanup: read profile", "err", err)
		return
	}
	kept := account.ProfilePaths(p)
	var gone []string
	for _, u := range before {
		if path, ok := media.PathFromPublicURL(u, media.Bucket); ok && media.Owner(path) == userID && !kept[path] {
			gone = append(gone, path)
		}
	}
	uploads, err := s.db.MediaObjectsOf(ctx, userID)
	if err != nil {
		s.logger.Error("image cleanup: list uploads", "err", err)
	}
	cutoff := s.now().Add(-abandonedUploadAge)
	for _, o := range uploads {
		path := strings.TrimPrefix(o.Key, media.Bucket+"/")
		if !kept[path] && o.UpdatedAt.Before(cutoff) && !slices.Contains(gone, path) {
			gone = append(gone, path)
		}
	}
	for _, path := range gone {
		if err := s.deleteObject(ctx, path); err != nil {
			s.logger.Error("image cleanup: delete", "key", path, "err", err)
		}
	}
}

// onboardingAnswer is the body of a successful onboarding call.
type onboardingAnswer struct {
	Message string         `json:"message"`
	Profile *store.Profile `json:"profile"`
}

// finishOnboarding answers a saved onboarding call with the whole profile.
func (s *Server) finishOnboarding(w http.ResponseWriter, r *http.Request, userID, msg string, before []string, err error) {
	if err != nil {
		s.logger.Error("save profile", "err", err)
		writeFunctionError(w, http.StatusInternalServerError, "Could not save your profile. Please try again.", nil)
		return
	}
	s.removeUnreferenced(r.Context(), userID, before)
	p, err := s.db.ProfileByUser(r.Context(), userID)
	if err != nil {
		s.logger.Error("read profile", "err", err)
		writeFunctionError(w, http.StatusInternalServerError, "Your profile was saved but could not be read back. Please reload.", nil)
		return
	}
	writeJSON(w, http.StatusOK, onboardingAnswer{Message: msg, Profile: p})
}

// checkImages answers 400 when one of paths has no stored object.
func (s *Server) checkImages(w http.ResponseWriter, r *http.Request, field string, paths []string) bool {
	i, err := s.missingObject(r.Context(), paths)
	if err != nil {
		s.logger.Error("stat image", "err", err)
		writeFunctionError(w, http.StatusInternalServerError, "Could not check your images. Please try again.", nil)
		return false
	}
	if i >= 0 {
		msg := "Image " + paths[i] + " was not found: please upload it again"
		writeFunctionError(w, http.StatusBadRequest, msg, map[string]string{field: msg})
		return false
	}
	return true
}

// onboardingFunction is one of the two onboarding functions: its payload
// In, checked into Out by check, whose images (in imagesField) must exist
// before save stores it.
type onboardingFunction[In, Out any] struct {
	noSession   string // 401 message
	done        string // success message
	imagesField string
	userID      func(*In) string
	check       func(In) (Out, validate.Errors)
	images      func(Out) []string
	ticks       func(In) account.Ticks
	save        func(ctx context.Context, userID string, out Out) (before []string, err error)
}

// handle answers the function: 401 without a session, 403 for another
// account's userId, 400 with the field messages, else saves and answers the
// whole profile.
func (f onboardingFunction[In, Out]) handle(s *Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims := s.onboardingCaller(w, r, f.noSession)
		if claims == nil {
			return
		}
		var in In
		if err := decodeJSON(w, r, &in); err != nil {
			writeRequestError(w, err)
			return
		}
		if id := f.userID(&in); id != "" && id != claims.Subject {
			writeFunctionError(w, http.StatusForbidden, msgNotYourAccount, nil)
			return
		}
		out, errs := f.check(in)
		if len(errs) > 0 {
			writeFunctionError(w, http.StatusBadRequest, errs.First(), errs)
			return
		}
		if !s.checkImages(w, r, f.imagesField, f.images(out)) {
			return
		}
		first := s.withoutRole(r.Context(), claims.Subject)
		before, err := f.save(r.Context(), claims.Subject, out)
		if err == nil && first {
			// The profile has its role now: onboarding is finished.
			s.countMilestone(r.Context(), analytics.OnboardingFinished)
		}
		if err == nil {
			err = s.account.RecordTicks(r.Context(), claims.Subject, f.ticks(in))
		}
		s.finishOnboarding(w, r, claims.Subject, f.done, before, err)
	})
}

// withoutRole reports whether userID has no profile with a role yet (false
// when that cannot be read, so that a milestone is never counted twice).
func (s *Server) withoutRole(ctx context.Context, userID string) bool {
	p, err := s.db.ProfileByUser(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return true
	}
	return err == nil && p.Role == nil
}

// handleOnboardNewUser saves the buyer (style) half of the caller's profile
// from the onboarding payload (spec call 9).
func (s *Server) handleOnboardNewUser() http.Handler {
	return onboardingFunction[validate.ProfileInput, validate.Profile]{
		noSession: msgProfileNoSession, done: "Profile created successfully!", imagesField: "body_photo_urls",
		userID: func(in *validate.ProfileInput) string { return in.UserID },
		check:  validate.OnboardingProfile,
		images: func(p validate.Profile) []string { return p.PhotoPaths },
		ticks: func(in validate.ProfileInput) account.Ticks {
			return account.Ticks{Terms: in.Terms, ParentalConsent: in.ParentalConsent, WardrobeClearance: &in.WantsClearanceProgram}
		},
		save: func(ctx context.Context, userID string, p validate.Profile) ([]string, error) {
			return s.db.SaveBuyerProfile(ctx, userID, store.BuyerFields{
				FullName: p.FullName, Location: p.Location, PhoneNumber: p.PhoneNumber, Gender: p.Gender, Age: p.Age,
				Height: p.Height, WaistSize: p.WaistSize, StyleDescription: p.StyleDescription,
				ClothingAesthetics: p.ClothingAesthetics, Inspiration: p.Inspiration,
				WantsClearanceProgram: p.WantsClearanceProgram, BodyPhotoURLs: p.BodyPhotoURLs, ProfilePicURL: p.ProfilePicURL,
			})
		},
	}.handle(s)
}

// handleOnboardSeller saves the seller (business) half of the caller's
// profile from the seller payload (spec call 10).
func (s *Server) handleOnboardSeller() http.Handler {
	return onboardingFunction[validate.SellerInput, validate.Seller]{
		noSession: msgSellerNoSession, done: "Seller profile created successfully!", imagesField: "logo_urls",
		userID: func(in *validate.SellerInput) string { return in.UserID },
		check:  validate.OnboardingSeller,
		images: func(p validate.Seller) []string { return p.LogoPaths },
		ticks: func(in validate.SellerInput) account.Ticks {
			return account.Ticks{Terms: in.Terms, ParentalConsent: in.ParentalConsent}
		},
		save: func(ctx context.Context, userID string, p validate.Seller) ([]string, error) {
			return s.db.SaveSellerProfile(ctx, userID, store.SellerFields{
				FullName: p.FullName, Location: p.Location, PhoneNumber: p.PhoneNumber, Gender: p.Gender, Age: p.Age,
				BusinessName: p.BusinessName, RegistrationNumber: p.RegistrationNumber, BusinessMode: p.BusinessMode,
				LogoURLs: p.LogoURLs,
			})
		},
	}.handle(s)
}
