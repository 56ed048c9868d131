// Copyright 2017 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package argon2 is Argon2id (RFC 9106) from golang.org/x/crypto/argon2
// (v0.58.0, BSD licence in LICENSE), changed in two ways. First, the 1 KiB
// blocks live in a Memory the caller keeps and reuses, instead of a fresh
// allocation of the whole memory cost (19 MiB with OWASP's parameters) on
// every call. A server that checks passwords one per core then holds one
// Memory per core for good, and a crowd of sign-ins makes no garbage for
// the collector and no page faults. Because a reused Memory holds the
// previous run's blocks, the first pass overwrites each block (RFC 9106
// section 3.2, step 5) where x/crypto XORs into freshly zeroed memory; the
// result is the same, and the tests compare every output with x/crypto's.
// Second, a one-lane run calls the Memory's Pause, when set, between its
// segments, so the caller can give way to the scheduler there.
// Only IDKey is kept; the assembly is x/crypto's amd64 SSE4.1 code, and
// other platforms use the portable Go code.
package argon2

import (
	"encoding/binary"
	"sync"

	"golang.org/x/crypto/blake2b"
)

// Version is the Argon2 version implemented by this package.
const Version = 0x13

const (
	argon2d = iota
	argon2i
	argon2id
)

// Memory is the working memory of Argon2id runs, grown as needed and
// reused by the next run. A Memory may be used by one run at a time.
type Memory struct {
	blocks []block
	// Pause, when set, is called between the segments of a one-lane run
	// (four a pass), on the goroutine running it, so that a caller can
	// give way to the scheduler at a point of its choosing.
	Pause func()
}

// Size is how many bytes the memory holds now.
func (m *Memory) Size() int { return len(m.blocks) * blockLength * 8 }

// IDKey is x/crypto's argon2.IDKey (same arguments, same result) computed
// in m, which grows to the memory cost when it is smaller.
func (m *Memory) IDKey(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
	return m.deriveKey(argon2id, password, salt, nil, nil, time, memory, threads, keyLen)
}

func (m *Memory) deriveKey(mode int, password, salt, secret, data []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
	if time < 1 {
		panic("argon2: number of rounds too small")
	}
	if threads < 1 {
		panic("argon2: parallelism degree too low")
	}
	h0 := initHash(password, salt, secret, data, time, memory, uint32(threads), keyLen, mode)

	memory = memory / (syncPoints * uint32(threads)) * (syncPoints * uint32(threads))
	if memory < 2*syncPoints*uint32(threads) {
		memory = 2 * syncPoints * uint32(threads)
	}
	if uint32(len(m.blocks)) < memory {
		m.blocks = make([]block, memory)
	}
	B := m.blocks[:memory]
	initBlocks(B, &h0, memory, uint32(threads))
	processBlocks(B, time, memory, uint32(threads), mode, m.Pause)
	return extractKey(B, memory, uint32(threads), keyLen)
}

const (
	blockLength = 128
	syncPoints  = 4
)

type block [blockLength]uint64

func initHash(password, salt, key, data []byte, time, memory, threads, keyLen uint32, mode int) [blake2b.Size + 8]byte {
	var (
		h0     [blake2b.Size + 8]byte
		params [24]byte
		tmp    [4]byte
	)

	b2, _ := blake2b.New512(nil)
	binary.LittleEndian.PutUint32(params[0:4], threads)
	binary.LittleEndian.PutUint32(params[4:8], keyLen)
	binary.LittleEndian.PutUint32(params[8:12], memory)
	binary.LittleEndian.PutUint32(params[12:16], time)
	binary.LittleEndian.PutUint32(params[16:20], uint32(Version))
	binary.LittleEndian.PutUint32(params[20:24], uint32(mode))
	b2.Write(params[:])
	binary.LittleEndian.PutUint32(tmp[:], uint32(len(password)))
	b2.Write(tmp[:])
	b2.Write(password)
	binary.LittleEndian.PutUint32(tmp[:], uint32(len(salt)))
	b2.Write(tmp[:])
	b2.Write(salt)
	binary.LittleEndian.PutUint32(tmp[:], uint32(len(key)))
	b2.Write(tmp[:])
	b2.Write(key)
	binary.LittleEndian.PutUint32(tmp[:], uint32(len(data)))
	b2.Write(tmp[:])
	b2.Write(data)
	b2.Sum(h0[:0])
	return h0
}

func initBlocks(B []block, h0 *[blake2b.Size + 8]byte, memory, threads uint32) {
	var block0 [1024]byte
	for lane := uint32(0); lane < threads; lane++ {
		j := lane * (memory / threads)
		binary.LittleEndian.PutUint32(h0[blake2b.Size+4:], lane)

		binary.LittleEndian.PutUint32(h0[blake2b.Size:], 0)
		blake2bHash(block0[:], h0[:])
		for i := range B[j+0] {
			B[j+0][i] = binary.LittleEndian.Uint64(block0[i*8:])
		}

		binary.LittleEndian.PutUint32(h0[blake2b.Size:], 1)
		blake2bHash(block0[:], h0[:])
		for i := range B[j+1] {
			B[j+1][i] = binary.LittleEndian.Uint64(block0[i*8:])
		}
	}
}

func processBlocks(B []block, time, memory, threads uint32, mode int, pause func()) {
	lanes := memory / threads
	segments := lanes / syncPoints

	processSegment := func(n, slice, lane uint32, wg *sync.WaitGroup) {
		var addresses, in, zero block
		if mode == argon2i || (mode == argon2id && n == 0 && slice < syncPoints/2) {
			in[0] = uint64(n)
			in[1] = uint64(lane)
			in[2] = uint64(slice)
			in[3] = uint64(memory)
			in[4] = uint64(time)
			in[5] = uint64(mode)
		}

		index := uint32(0)
		if n == 0 && slice == 0 {
			index = 2 // we have already generated the first two blocks
			if mode == argon2i || mode == argon2id {
				in[6]++
				processBlock(&addresses, &in, &zero)
				processBlock(&addresses, &addresses, &zero)
			}
		}

		offset := lane*lanes + slice*segments + index
		var random uint64
		for index < segments {
			prev := offset - 1
			if index == 0 && slice == 0 {
				prev += lanes // last block in lane
			}
			if mode == argon2i || (mode == argon2id && n == 0 && slice < syncPoints/2) {
				if index%blockLength == 0 {
					in[6]++
					processBlock(&addresses, &in, &zero)
					processBlock(&addresses, &addresses, &zero)
				}
				random = addresses[index%blockLength]
			} else {
				random = B[prev][0]
			}
			newOffset := indexAlpha(random, lanes, segments, threads, n, slice, lane, index)
			if n == 0 {
				// First pass: overwrite, as RFC 9106 says; the block may
				// hold a previous run's data (x/crypto XORs into zeroes).
				processBlock(&B[offset], &B[prev], &B[newOffset])
			} else {
				processBlockXOR(&B[offset], &B[prev], &B[newOffset])
			}
			index, offset = index+1, offset+1
		}
		wg.Done()
	}

	for n := uint32(0); n < time; n++ {
		for slice := uint32(0); slice < syncPoints; slice++ {
			var wg sync.WaitGroup
			if threads == 1 {
				// One lane: run it here, not in a goroutine of its own
				// per segment (20 hand-offs between threads per hash at
				// t=5), so the hash stays on the caller's thread.
				wg.Add(1)
				processSegment(n, slice, 0, &wg)
				if pause != nil && (n+1 < time || slice+1 < syncPoints) {
					pause()
				}
				continue
			}
			for lane := uint32(0); lane < threads; lane++ {
				wg.Add(1)
				go processSegment(n, slice, lane, &wg)
			}
			wg.Wait()
		}
	}

}

func extractKey(B []block, memory, threads, keyLen uint32) []byte {
	lanes := memory / threads
	for lane := uint32(0); lane < threads-1; lane++ {
		for i, v := range B[(lane*lanes)+lanes-1] {
			B[memory-1][i] ^= v
		}
	}

	var block [1024]byte
	for i, v := range B[memory-1] {
		binary.LittleEndian.PutUint64(block[i*8:], v)
	}
	key := make([]byte, keyLen)
	blake2bHash(key, block[:])
	return key
}

func indexAlpha(rand uint64, lanes, segments, threads, n, slice, lane, index uint32) uint32 {
	refLane := uint32(rand>>32) % threads
	if n == 0 && slice == 0 {
		refLane = lane
	}
	m, s := 3*segments, ((slice+1)%syncPoints)*segments
	if lane == refLane {
		m += index
	}
	if n == 0 {
		m, s = slice*segments, 0
		if slice == 0 || lane == refLane {
			m += index
		}
	}
	if index == 0 || lane == refLane {
		m--
	}
	return phi(rand, uint64(m), uint64(s), refLane, lanes)
}

func phi(rand, m, s uint64, lane, lanes uint32) uint32 {
	p := rand & 0xFFFFFFFF
	p = (p * p) >> 32
	p = (p * m) >> 32
	return lane*lanes + uint32((s+m-(p+1))%uint64(lanes))
}
