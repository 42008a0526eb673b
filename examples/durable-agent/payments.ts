/**
 * A stand-in for an external payments API that deduplicates by idempotency
 * key, as real ones do: the first refund with a key is made (and answered
 * slowly), a repeat with the same key gets the first one's receipt at once.
 * Its ledger is a folder of files, so it outlives the service's process.
 */

import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A refund as the payments API records it. */
export interface Receipt {
  readonly refundId: string;
  readonly orderId: string;
  readonly cents: number;
}

/** The payments API over the ledger folder `dir`. */
export function paymentsApi(dir: string) {
  const ledger = (key: string) => join(dir, `refund-${encodeURIComponent(key)}.json`);
  return {
    /** Refunds once per key; every request is logged, made or deduplicated. */
    async refund(orderId: string, cents: number, idempotencyKey: string): Promise<Receipt> {
      appendFileSync(join(dir, "requests.log"), `${idempotencyKey}\n`);
      const receipt: Receipt = { refundId: `re_${orderId}_${cents}`, orderId, cents };
      try {
        writeFileSync(ledger(idempotencyKey), JSON.stringify(receipt), { flag: "wx" });
      } catch {
        return JSON.parse(readFileSync(ledger(idempotencyKey), "utf8")) as Receipt;
      }
      // The first request is slow to answer: the refund is made, the reply is not back yet.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return receipt;
    },
  };
}
