// The two primitives SigV4 needs, through OpenSSL 3's EVP interface.
#pragma once

#include <string>
#include <string_view>

namespace karpenter::aws {

// SHA-256 of `data` as 64 lower-case hex digits.
std::string Sha256Hex(std::string_view data);
// HMAC-SHA256 of `data` under `key`: 32 raw bytes.
std::string HmacSha256(std::string_view key, std::string_view data);
// Standard base64 with padding (EC2's UserData).
std::string Base64Encode(std::string_view bytes);
// Lower-case hex of raw bytes.
std::string HexEncode(std::string_view bytes);

}  // namespace karpenter::aws
