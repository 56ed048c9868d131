package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestProfileHalvesCombineEvenWhenSavedAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for i := range 10 {
			u := &store.User{Email: fmt.Sprintf("both%d@example.com", i), PasswordHash: "x"}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make([]error, 2)
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, errs[0] = db.SaveBuyerProfile(ctx, u.ID, store.BuyerFields{FullName: "Chipo", Height: "165 cm", BodyPhotoURLs: []string{"p1"}})
			}()
			go func() {
				defer wg.Done()
				_, errs[1] = db.SaveSellerProfile(ctx, u.ID, store.SellerFields{FullName: "Chipo", BusinessName: "Chipo Thrift", LogoURLs: []string{"l1"}})
			}()
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			p, err := db.ProfileByUser(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			if *p.Role != "buyer_and_seller" || p.Height != "165 cm" || p.BusinessName != "Chipo Thrift" || len(p.BodyPhotoURLs) != 1 || len(p.LogoURLs) != 1 {
				t.Fatalf("profile after both halves at once = %+v", p)
			}
			// Saving a half again returns the images it referred to before.
			before, err := db.SaveSellerProfile(ctx, u.ID, store.SellerFields{FullName: "Chipo", BusinessName: "New"})
			if err != nil || len(before) != 2 {
				t.Fatalf("before = %v, %v; want the photo and the logo", before, err)
			}
		}
	})
}
