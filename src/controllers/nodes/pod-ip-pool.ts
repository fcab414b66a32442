/**
 * Pod IPs per node from its /24 pod CIDR (.2 to .254; .0 and .1 are the network and its gateway), unique among the
 * node's live pods and released when a pod goes.
 */
export class PodIpPool {
  private readonly byNode = new Map<string, Map<string, string>>();

  private ipsOf(node: string): Map<string, string> {
    let ips = this.byNode.get(node);
    if (ips === undefined) {
      ips = new Map();
      this.byNode.set(node, ips);
    }
    return ips;
  }

  /** The pod's address, allocating the lowest free one on first use; a full range reuses .254 (never reached at 110 pods). */
  allocate(node: string, cidr: string, uid: string): string {
    const ips = this.ipsOf(node);
    const known = ips.get(uid);
    if (known !== undefined) return known;
    const prefix = cidr.replace(/\.\d+\/\d+$/, '.');
    const used = new Set(ips.values());
    let host = 2;
    while (host < 254 && used.has(`${prefix}${host}`)) host++;
    const ip = `${prefix}${host}`;
    ips.set(uid, ip);
    return ip;
  }

  /** Records an address handed out before (a pod already Running when the simulation starts). */
  claim(node: string, uid: string, ip: string): void {
    this.ipsOf(node).set(uid, ip);
  }

  release(node: string, uid: string): void {
    const ips = this.byNode.get(node);
    if (ips === undefined) return;
    ips.delete(uid);
    if (ips.size === 0) this.byNode.delete(node);
  }

  releaseNode(node: string): void {
    this.byNode.delete(node);
  }
}
