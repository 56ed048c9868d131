// Package onboarding holds the rules of a person's profile below HTTP: the
// buyer (style) half saved by onboard-new-user, the seller (business) half
// saved by onboard-seller, and the profile get-profile-me answers. A save
// checks the payload (internal/validate), that its images are stored,
// records the boxes ticked (internal/account), counts the funnel's
// milestone and removes images the profile no longer uses. Errors are
// *apierr.Error.
package onboarding

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"salaula/internal/account"
	"salaula/internal/analytics"
	"salaula/internal/apierr"
	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// Service saves and reads profiles.
type Service struct {
	DB      *store.DB
	Library *media.Library
	Account *account.Rules
	Stats   *analytics.Collector
	Logger  *slog.Logger
	Now     func() time.Time // clock; time.Now when nil
}

// Messages of the profile rules.
const (
	msgNotYourAccount = "You can only set up your own profile: userId must be the signed-in user's id."
	msgSaveFailed     = "Could not save your profile. Please try again."
	msgReadBack       = "Your profile was saved but could not be read back. Please reload."
	msgReadFailed     = "Could not read your profile. Please try again."
	msgImagesFailed   = "Could not check your images. Please try again."
)

// ErrNotYourAccount is the error of a payload naming another account's userId.
var ErrNotYourAccount = apierr.New(apierr.Forbidden, msgNotYourAccount)

// Saved is the answer of a saved profile: a message and the whole profile.
type Saved struct {
	Message string         `json:"message"`
	Profile *store.Profile `json:"profile"`
}

// abandonedUploadAge is how old an upload no profile refers to must be
// before a save of its owner's profile deletes it: old enough that it is not
// waiting for the other half of the combined form.
const abandonedUploadAge = time.Hour

// half is one of the two halves of a profile: its payload In, checked into
// Out by check, whose images (in imagesField) must exist before save
// stores it.
type half[In, Out any] struct {
	done        string // success message
	imagesField string
	userID      func(*In) string
	check       func(In) (Out, validate.Errors)
	images      func(Out) []string
	ticks       func(In) account.Ticks
	save        func(ctx context.Context, userID string, out Out) (before []string, err error)
}

// run saves in as userID's: ErrNotYourAccount for another account's
// userId, Invalid with the field messages, else the saved profile.
func run[In, Out any](ctx context.Context, s *Service, h half[In, Out], userID string, in In) (*Saved, error) {
	if id := h.userID(&in); id != "" && id != userID {
		return nil, ErrNotYourAccount
	}
	out, errs := h.check(in)
	if len(errs) > 0 {
		return nil, apierr.Fields(errs.First(), errs)
	}
	if err := s.checkImages(ctx, h.imagesField, h.images(out)); err != nil {
		return nil, err
	}
	first := s.withoutRole(ctx, userID)
	before, err := h.save(ctx, userID, out)
	if err == nil && first {
		// The profile has its role now: onboarding is finished.
		s.milestone(ctx, analytics.OnboardingFinished)
	}
	if err == nil {
		err = s.Account.RecordTicks(ctx, userID, h.ticks(in))
	}
	if err != nil {
		return nil, apierr.Wrap(fmt.Errorf("save profile: %w", err), msgSaveFailed)
	}
	s.removeUnreferenced(ctx, userID, before)
	p, err := s.DB.ProfileByUser(ctx, userID)
	if err != nil {
		return nil, apierr.Wrap(fmt.Errorf("read profile: %w", err), msgReadBack)
	}
	return &Saved{Message: h.done, Profile: p}, nil
}

// SaveBuyer saves the buyer (style) half of userID's profile from the
// onboarding payload (spec call 9).
func (s *Service) SaveBuyer(ctx context.Context, userID string, in validate.ProfileInput) (*Saved, error) {
	return run(ctx, s, half[validate.ProfileInput, validate.Profile]{
		done: "Profile created successfully!", imagesField: "body_photo_urls",
		userID: func(in *validate.ProfileInput) string { return in.UserID },
		check:  validate.OnboardingProfile,
		images: func(p validate.Profile) []string { return p.PhotoPaths },
		ticks: func(in validate.ProfileInput) account.Ticks {
			return account.Ticks{Terms: in.Terms, ParentalConsent: in.ParentalConsent, WardrobeClearance: &in.WantsClearanceProgram}
		},
		save: func(ctx context.Context, userID string, p validate.Profile) ([]string, error) {
			return s.DB.SaveBuyerProfile(ctx, userID, store.BuyerFields{
				FullName: p.FullName, Location: p.Location, PhoneNumber: p.PhoneNumber, Gender: p.Gender, Age: p.Age,
				Height: p.Height, WaistSize: p.WaistSize, StyleDescription: p.StyleDescription,
				ClothingAesthetics: p.ClothingAesthetics, Inspiration: p.Inspiration,
				WantsClearanceProgram: p.WantsClearanceProgram, BodyPhotoURLs: p.BodyPhotoURLs, ProfilePicURL: p.ProfilePicURL,
			})
		},
	}, userID, in)
}

// SaveSeller saves the seller (business) half of userID's profile from
// the seller payload (spec call 10).
func (s *Service) SaveSeller(ctx context.Context, userID string, in validate.SellerInput) (*Saved, error) {
	return run(ctx, s, half[validate.SellerInput, validate.Seller]{
		done: "Seller profile created successfully!", imagesField: "logo_urls",
		userID: func(in *validate.SellerInput) string { return in.UserID },
		check:  validate.OnboardingSeller,
		images: func(p validate.Seller) []string { return p.LogoPaths },
		ticks: func(in validate.SellerInput) account.Ticks {
			return account.Ticks{Terms: in.Terms, ParentalConsent: in.ParentalConsent}
		},
		save: func(ctx context.Context, userID string, p validate.Seller) ([]string, error) {
			return s.DB.SaveSellerProfile(ctx, userID, store.SellerFields{
				FullName: p.FullName, Location: p.Location, PhoneNumber: p.PhoneNumber, Gender: p.Gender, Age: p.Age,
				BusinessName: p.BusinessName, RegistrationNumber: p.RegistrationNumber, BusinessMode: p.BusinessMode,
				LogoURLs: p.LogoURLs,
			})
		},
	}, userID, in)
}

// Me is get-profile-me's answer: the whole profile with the account's
// e-mail, or only the id, e-mail and a null role before onboarding.
type Me struct {
	*store.Profile
	Email string `json:"email"`
}

// noProfile is Me before onboarding has saved a profile.
type noProfile struct {
	UserID string  `json:"user_id"`
	Email  string  `json:"email"`
	Role   *string `json:"role"`
}

// Profile returns userID's whole profile (role null until onboarding has
// set it), with email, the account's address.
func (s *Service) Profile(ctx context.Context, userID, email string) (any, error) {
	p, err := s.DB.ProfileByUser(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return noProfile{UserID: userID, Email: email}, nil
	}
	if err != nil {
		return nil, apierr.Wrap(fmt.Errorf("get profile: %w", err), msgReadFailed)
	}
	return Me{Profile: p, Email: email}, nil
}

// checkImages returns an Invalid error naming field when one of paths has
// no stored object.
func (s *Service) checkImages(ctx context.Context, field string, paths []string) error {
	i, err := s.Library.FirstMissing(ctx, paths)
	if err != nil {
		return apierr.Wrap(fmt.Errorf("stat image: %w", err), msgImagesFailed)
	}
	if i >= 0 {
		msg := "Image " + paths[i] + " was not found: please upload it again"
		return apierr.Fields(msg, map[string]string{field: msg})
	}
	return nil
}

// withoutRole reports whether userID has no profile with a role yet (false
// when that cannot be read, so that a milestone is never counted twice).
func (s *Service) withoutRole(ctx context.Context, userID string) bool {
	p, err := s.DB.ProfileByUser(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return true
	}
	return err == nil && p.Role == nil
}

// milestone counts a funnel milestone after the change it counts is
// committed; a failure is logged (the change itself stands).
func (s *Service) milestone(ctx context.Context, name string) {
	if err := s.Stats.Milestone(context.WithoutCancel(ctx), name); err != nil {
		s.Logger.Error("analytics: count milestone", "milestone", name, "err", err)
	}
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// removeUnreferenced deletes, after a save of userID's profile, the
// images it referred to before and no longer does, and userID's uploads
// older than abandonedUploadAge that it does not refer to. Failures are
// logged: the save stands.
func (s *Service) removeUnreferenced(ctx context.Context, userID string, before []string) {
	p, err := s.DB.ProfileByUser(ctx, userID)
	if err != nil {
		s.Logger.Error("image cleanup: read profile", "err", err)
		return
	}
	kept := account.ProfilePaths(p)
	var gone []string
	for _, u := range before {
		if path, ok := media.PathFromPublicURL(u, media.Bucket); ok && media.Owner(path) == userID && !kept[path] {
			gone = append(gone, path)
		}
	}
	uploads, err := s.DB.MediaObjectsOf(ctx, userID)
	if err != nil {
		s.Logger.Error("image cleanup: list uploads", "err", err)
	}
	cutoff := s.now().Add(-abandonedUploadAge)
	for _, o := range uploads {
		path := strings.TrimPrefix(o.Key, media.Bucket+"/")
		if !kept[path] && o.UpdatedAt.Before(cutoff) && !slices.Contains(gone, path) {
			gone = append(gone, path)
		}
	}
	for _, path := range gone {
		if err := s.Library.Delete(ctx, path); err != nil {
			s.Logger.Error("image cleanup: delete", "key", path, "err", err)
		}
	}
}
