/**
 * The Redis Cluster slot of a key or shard channel (the rule of `CLUSTER KEYSLOT`): CRC16/XMODEM
 * of the hashed part, modulo 16384. The hashed part is the text inside the first `{…}` when that
 * is not empty, else the whole name. Computed here because a shard channel's slot is never sent
 * by Redis (`COMMAND GETKEYS` has none for SPUBLISH or `PUBSUB SHARDNUMSUB`), and the sharded
 * pub/sub groups its topics by slot and asks each slot's owner.
 */
export const slotCount = 16_384;

const table = (() => {
  const values = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    values[byte] = crc;
  }
  return values;
})();

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ table[((crc >> 8) ^ byte) & 0xff]!;
  return crc;
}

/** The part of a name Redis hashes. */
export function hashedPart(name: string): string {
  const open = name.indexOf('{');
  if (open < 0) return name;
  const close = name.indexOf('}', open + 1);
  return close > open + 1 ? name.slice(open + 1, close) : name;
}

export function keySlot(name: string): number {
  return crc16(Buffer.from(hashedPart(name), 'utf8')) % slotCount;
}
