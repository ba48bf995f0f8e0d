package dev.modelplane.operator.modelsource;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * An IPv4 or IPv6 address range in CIDR notation ({@code 10.0.0.0/8}, {@code fc00::/7}); a bare address is its own
 * {@code /32} or {@code /128}.
 *
 * @param network the range's first address (host bits cleared)
 * @param prefix number of leading bits every address in the range shares
 */
public record Cidr(InetAddress network, int prefix) {
  public Cidr {
    int bits = network.getAddress().length * 8;
    if (prefix < 0 || prefix > bits) {
      throw new IllegalArgumentException("prefix /" + prefix + " is out of range for " + network.getHostAddress());
    }
    network = masked(network, prefix);
  }

  /**
   * Parses {@code address[/prefix]} given as numbers only (never a host name, which would need a DNS lookup).
   *
   * @throws IllegalArgumentException naming the text when it is not a CIDR range
   */
  public static Cidr parse(String text) {
    String t = text == null ? "" : text.strip();
    int slash = t.indexOf('/');
    String address = slash < 0 ? t : t.substring(0, slash);
    boolean v4 = address.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    boolean v6 = address.contains(":") && address.toLowerCase(Locale.ROOT).matches("[0-9a-f:.]+");
    if (!v4 && !v6) {
      throw new IllegalArgumentException("'" + text + "' is not a CIDR range such as 10.0.0.0/8 or fc00::/7");
    }
    InetAddress network;
    try {
      if (v4) {
        byte[] octets = new byte[4];
        String[] parts = address.split("\\.");
        for (int i = 0; i < 4; i++) {
          int octet = Integer.parseInt(parts[i]);
          if (octet > 255) {
            throw new UnknownHostException(address);
          }
          octets[i] = (byte) octet;
        }
        network = InetAddress.getByAddress(octets);
      } else {
        network = InetAddress.getByName(address);
      }
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("'" + text + "' is not a CIDR range such as 10.0.0.0/8 or fc00::/7");
    }
    int bits = network.getAddress().length * 8;
    int prefix;
    try {
      prefix = slash < 0 ? bits : Integer.parseInt(t.substring(slash + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' has no numeric prefix length after the /");
    }
    if (prefix < 0 || prefix > bits) {
      throw new IllegalArgumentException("'" + text + "': the prefix length must be 0 to " + bits);
    }
    return new Cidr(network, prefix);
  }

  /** Whether {@code address} lies in this range; an IPv4 address never lies in an IPv6 range and vice versa. */
  public boolean contains(InetAddress address) {
    if ((address instanceof Inet4Address) != (network instanceof Inet4Address)) {
      return false;
    }
    return masked(address, prefix).equals(network);
  }

  @Override
  public String toString() {
    return network.getHostAddress() + "/" + prefix;
  }

  private static InetAddress masked(InetAddress address, int prefix) {
    byte[] bytes = address.getAddress();
    for (int i = 0; i < bytes.length; i++) {
      int keep = Math.max(0, Math.min(8, prefix - i * 8));
      bytes[i] = (byte) (bytes[i] & (0xFF << (8 - keep)));
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("an address of 4 or 16 bytes is always valid", e);
    }
  }
}
