/* @ts-self-types="./trade_core.d.ts" */
import * as wasm from "./trade_core_bg.wasm";
import { __wbg_set_wasm } from "./trade_core_bg.js";

__wbg_set_wasm(wasm);
wasm.__wbindgen_start();
export {
    Ed25519Signer, HmacSigner, VaultHandle, addDecimals, aes256GcmEncrypt, argon2idHash, buildQuery, compareDecimals, divDecimals, hkdfSha256, hmacSha256Hex, hmacSha256HexBytes, initialMargin, lagScan, liquidationPrice, mulDecimals, notional, openToken, orderQuantity, pearson, possibleLoss, rekeyToken, roePercent, roundDecimal, sealToken, sealTokenWithParams, stopPrice, subDecimals, sumDecimals, takeProfitPrice, trailingActivationPrice, trailingCallbackRate, unlockToken, unrealizedPnl
} from "./trade_core_bg.js";
