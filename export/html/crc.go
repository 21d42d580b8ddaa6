package html

// crcCombine is zlib's crc32_combine for the IEEE polynomial: the CRC of
// A followed by B from crc(A), crc(B) and len(B). Chunks are deflated on
// every core and only their compressed bytes kept, so the gzip trailer's
// CRC is assembled from each chunk's own.
func crcCombine(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	var even, odd [32]uint32
	odd[0] = 0xedb88320 // the reversed IEEE polynomial
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	gf2Square(even[:], odd[:]) // two zero bits
	gf2Square(odd[:], even[:]) // four zero bits
	for {
		gf2Square(even[:], odd[:]) // one zero byte, then 4, 16, ...
		if len2&1 != 0 {
			crc1 = gf2Times(even[:], crc1)
		}
		len2 >>= 1
		if len2 == 0 {
			break
		}
		gf2Square(odd[:], even[:])
		if len2&1 != 0 {
			crc1 = gf2Times(odd[:], crc1)
		}
		len2 >>= 1
		if len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

func gf2Times(mat []uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

func gf2Square(square, mat []uint32) {
	for n := range 32 {
		square[n] = gf2Times(mat, mat[n])
	}
}
