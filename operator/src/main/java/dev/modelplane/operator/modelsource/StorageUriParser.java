package dev.modelplane.operator.modelsource;

import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads OME storage URIs the way OME's {@code pkg/utils/storage} splits them, and refuses what OME would pass on to
 * a failing download or a wrong path: empty segments, {@code ..}, whitespace, a second {@code @}, an invalid
 * namespace or claim name. Where OME's split is ambiguous (an {@code @} after the S3 bucket, extra GitHub segments)
 * the first {@code /} ends the bucket or owner, as the documented forms say.
 */
final class StorageUriParser {
  static final String OCI_FORM = "oci://n/{namespace}/b/{bucket}/o/{prefix}";
  static final String PVC_FORM = "pvc://[{namespace}:]{claim}/{subpath}";
  static final String HF_FORM = "hf://{org}/{model}[@branch]";
  static final String S3_FORM = "s3://{bucket}[@region]/{prefix}";
  static final String AZ_FORM = "az://{account}/{container}/{blob} or az://{account}.blob.core.windows.net/{container}/{blob}";
  static final String GS_FORM = "gs://{bucket}/{object}";
  static final String GITHUB_FORM = "github://{owner}/{repository}[@tag]";
  static final String LOCAL_FORM = "local://{path}";
  static final String VENDOR_FORM = "vendor://{vendor}/{type}/{path}";

  private static final String AZURE_ENDPOINT = ".blob.core.windows.net";
  private static final int SHOWN_CHARACTERS = 200;
  /** OME's own namespace check for pvc:// (a DNS-1123 label). */
  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  /** A PersistentVolumeClaim name is a DNS-1123 subdomain; no other name can exist. */
  private static final Pattern CLAIM = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  /** Hugging Face and GitHub names: letters, digits, '-', '_' and '.'. */
  private static final Pattern REPO_NAME = Pattern.compile("[A-Za-z0-9._-]+");

  private final String uri;
  private final String field;
  private final String form;

  private StorageUriParser(String uri, String field, String form) {
    this.uri = uri;
    this.field = field;
    this.form = form;
  }

  static StorageUri parse(String uri, String field) {
    String supported = StorageUri.SCHEMES.stream().map(s -> s + "://").collect(Collectors.joining(", "));
    if (uri == null || uri.isEmpty()) {
      throw new StorageUriException(field, uri, field + ": must not be empty (expected one of " + supported + ")");
    }
    StorageUriParser general = new StorageUriParser(uri, field, "one of " + supported);
    if (uri.codePoints().anyMatch(StorageUriParser::isBlankOrControl)) {
      throw general.problem("contains whitespace or control characters");
    }
    int separator = uri.indexOf("://");
    if (separator < 0) {
      throw general.problem("has no scheme");
    }
    String scheme = uri.substring(0, separator);
    String rest = uri.substring(separator + 3);
    return switch (scheme) {
      case "oci" -> new StorageUriParser(uri, field, OCI_FORM).oci(rest);
      case "pvc" -> new StorageUriParser(uri, field, PVC_FORM).pvc(rest);
      case "hf" -> new StorageUriParser(uri, field, HF_FORM).huggingFace(rest);
      case "s3" -> new StorageUriParser(uri, field, S3_FORM).s3(rest);
      case "az" -> new StorageUriParser(uri, field, AZ_FORM).azure(rest);
      case "gs" -> new StorageUriParser(uri, field, GS_FORM).gcs(rest);
      case "github" -> new StorageUriParser(uri, field, GITHUB_FORM).gitHub(rest);
      case "local" -> new StorageUriParser(uri, field, LOCAL_FORM).local(rest);
      case "vendor" -> new StorageUriParser(uri, field, VENDOR_FORM).vendor(rest);
      default -> throw StorageUri.SCHEMES.contains(scheme.toLowerCase(java.util.Locale.ROOT))
          ? general.problem("has an upper-case scheme; schemes are lower case")
          : general.problem("has an unknown scheme \"" + shown(scheme) + "\"");
    };
  }

  private StorageUri oci(String rest) {
    String[] parts = rest.split("/", 6);
    if (parts.length < 6 || !parts[0].equals("n") || !parts[2].equals("b") || !parts[4].equals("o")) {
      throw problem("does not follow the OCI form");
    }
    String namespace = name(parts[1], "namespace");
    String bucket = name(parts[3], "bucket");
    return new StorageUri.Oci(namespace, bucket, path(parts[5], "prefix", true, true));
  }

  private StorageUri pvc(String rest) {
    if (rest.isEmpty()) {
      throw problem("has no claim name");
    }
    int slash = rest.indexOf('/');
    if (slash < 0) {
      throw problem("has no subpath");
    }
    String claimPart = rest.substring(0, slash);
    Optional<String> namespace = Optional.empty();
    int colon = claimPart.indexOf(':');
    if (colon >= 0) {
      String ns = claimPart.substring(0, colon);
      claimPart = claimPart.substring(colon + 1);
      if (ns.isEmpty()) {
        throw problem("has an empty namespace before ':'");
      }
      if (claimPart.contains(":")) {
        throw problem("has more than one ':' in {namespace}:{claim}");
      }
      if (!NAMESPACE.matcher(ns).matches()) {
        throw problem("has an invalid namespace \"" + shown(ns) + "\" (lower-case letters, digits and '-', "
            + "at most 63, beginning and ending with a letter or digit)");
      }
      namespace = Optional.of(ns);
    }
    if (claimPart.isEmpty()) {
      throw problem("has no claim name");
    }
    if (claimPart.length() > 253 || !CLAIM.matcher(claimPart).matches()) {
      throw problem("has an invalid claim name \"" + shown(claimPart) + "\" (lower-case letters, digits, '-' and "
          + "'.', at most 253, beginning and ending with a letter or digit)");
    }
    String subPath = rest.substring(slash + 1);
    if (subPath.isEmpty()) {
      throw problem("has no subpath");
    }
    return new StorageUri.Pvc(namespace, claimPart, path(subPath, "subpath", true, false));
  }

  private StorageUri huggingFace(String rest) {
    String repoId = rest;
    String revision = StorageUri.HuggingFace.DEFAULT_REVISION;
    int at = rest.indexOf('@');
    if (at >= 0) {
      repoId = rest.substring(0, at);
      revision = rest.substring(at + 1);
      if (revision.isEmpty()) {
        throw problem("has an empty branch after '@'");
      }
      if (revision.contains("@")) {
        throw problem("has more than one '@'");
      }
      path(revision, "branch", false, false);
    }
    if (repoId.isEmpty()) {
      throw problem("has no model id");
    }
    String[] segments = repoId.split("/", -1);
    boolean typed = segments[0].equals("datasets") || segments[0].equals("spaces") || segments[0].equals("models");
    if (Stream.of(segments).anyMatch(String::isEmpty)) {
      throw problem("has an empty segment in its model id");
    }
    if (segments.length > (typed ? 3 : 2)) {
      throw problem("has more than {org}/{model} in its model id");
    }
    for (String segment : segments) {
      if (!REPO_NAME.matcher(segment).matches() || segment.equals("..") || segment.equals(".")) {
        throw problem("has an invalid model id \"" + shown(repoId) + "\" (letters, digits, '-', '_' and '.')");
      }
    }
    return new StorageUri.HuggingFace(repoId, revision);
  }

  private StorageUri s3(String rest) {
    int slash = rest.indexOf('/');
    String head = slash < 0 ? rest : rest.substring(0, slash);
    String prefix = slash < 0 ? "" : rest.substring(slash + 1);
    Optional<String> region = Optional.empty();
    int at = head.indexOf('@');
    if (at >= 0) {
      String r = head.substring(at + 1);
      head = head.substring(0, at);
      if (r.isEmpty()) {
        throw problem("has an empty region after '@'");
      }
      if (r.contains("@")) {
        throw problem("has more than one '@'");
      }
      region = Optional.of(r);
    }
    if (head.isEmpty()) {
      throw problem("has no bucket");
    }
    return new StorageUri.S3(head, region, path(prefix, "prefix", true, true));
  }

  private StorageUri azure(String rest) {
    int first = rest.indexOf('/');
    String account = first < 0 ? rest : rest.substring(0, first);
    String containerAndBlob = first < 0 ? "" : rest.substring(first + 1);
    // The endpoint form only names the account; it is recognised in the first segment alone.
    if (first >= 0 && account.endsWith(AZURE_ENDPOINT)) {
      account = account.substring(0, account.length() - AZURE_ENDPOINT.length());
    }
    if (account.isEmpty()) {
      throw problem("has no account");
    }
    int slash = containerAndBlob.indexOf('/');
    String container = slash < 0 ? containerAndBlob : containerAndBlob.substring(0, slash);
    if (container.isEmpty()) {
      throw problem("has no container");
    }
    String blob = slash < 0 ? "" : containerAndBlob.substring(slash + 1);
    return new StorageUri.Azure(name(account, "account"), container, path(blob, "blob path", true, true));
  }

  private StorageUri gcs(String rest) {
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.isEmpty()) {
      throw problem("has no bucket");
    }
    String object = slash < 0 ? "" : rest.substring(slash + 1);
    return new StorageUri.Gcs(bucket, path(object, "object", true, true));
  }

  private StorageUri gitHub(String rest) {
    String ownerRepo = rest;
    String tag = StorageUri.GitHub.LATEST;
    int at = rest.indexOf('@');
    if (at >= 0) {
      ownerRepo = rest.substring(0, at);
      tag = rest.substring(at + 1);
      if (tag.isEmpty()) {
        throw problem("has an empty tag after '@'");
      }
      if (tag.contains("@")) {
        throw problem("has more than one '@'");
      }
      path(tag, "tag", false, false);
    }
    if (ownerRepo.isEmpty()) {
      throw problem("has no owner");
    }
    String[] parts = ownerRepo.split("/", -1);
    if (parts.length != 2) {
      throw problem(parts.length < 2 ? "has no repository" : "has more than {owner}/{repository}");
    }
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      if (part.isEmpty()) {
        throw problem(i == 0 ? "has no owner" : "has no repository");
      }
      if (!REPO_NAME.matcher(part).matches() || part.equals("..") || part.equals(".")) {
        throw problem("has an invalid owner or repository \"" + shown(part) + "\" (letters, digits, '-', '_' and '.')");
      }
    }
    return new StorageUri.GitHub(parts[0], parts[1], tag);
  }

  private StorageUri local(String rest) {
    if (rest.isEmpty()) {
      throw problem("has no path");
    }
    String relative = rest.startsWith("/") ? rest.substring(1) : rest;
    if (relative.isEmpty()) {
      throw problem("names the root directory");
    }
    path(relative, "path", true, false);
    return new StorageUri.Local(rest);
  }

  private StorageUri vendor(String rest) {
    String[] parts = rest.split("/", 3);
    if (parts[0].isEmpty()) {
      throw problem("has no vendor");
    }
    if (parts.length < 2 || parts[1].isEmpty()) {
      throw problem("has no resource type");
    }
    if (parts.length < 3 || parts[2].isEmpty()) {
      throw problem("has no resource path");
    }
    return new StorageUri.Vendor(name(parts[0], "vendor"), name(parts[1], "resource type"),
        path(parts[2], "resource path", true, false));
  }

  /** A single segment: non-empty, and not a traversal. */
  private String name(String value, String what) {
    if (value.isEmpty()) {
      throw problem("has an empty " + what);
    }
    if (value.equals("..") || value.equals(".")) {
      throw problem("has \"" + value + "\" as its " + what);
    }
    return value;
  }

  /**
   * A slash-separated path inside the storage: no empty segment (a trailing slash, as prefixes are often written,
   * only when {@code trailingSlash}), and no {@code ..}, which would leave the directory the URI names.
   */
  private String path(String value, String what, boolean trailingSlash, boolean mayBeEmpty) {
    if (value.isEmpty()) {
      if (mayBeEmpty) {
        return value;
      }
      throw problem("has an empty " + what);
    }
    String[] segments = value.split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      if (segments[i].equals("..")) {
        throw problem("has \"..\" in its " + what + ", which would leave the directory it names");
      }
      boolean last = i == segments.length - 1;
      if (segments[i].isEmpty() && !(last && trailingSlash && i > 0)) {
        throw problem("has an empty segment (\"//\" or a leading or trailing '/') in its " + what);
      }
    }
    return value;
  }

  private StorageUriException problem(String what) {
    return new StorageUriException(field, uri, field + ": \"" + shown(uri) + "\" " + what + " (expected " + form + ")");
  }

  private static boolean isBlankOrControl(int cp) {
    return Character.isWhitespace(cp) || Character.isSpaceChar(cp) || Character.isISOControl(cp)
        || Character.getType(cp) == Character.FORMAT;
  }

  /** The value as it can be shown in a one-line message: control characters escaped, long values cut. */
  static String shown(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().limit(SHOWN_CHARACTERS).forEach(cp -> {
      if (cp == '"' || cp == '\\') {
        out.append('\\').appendCodePoint(cp);
      } else if (isBlankOrControl(cp) && cp != ' ') {
        out.append(String.format("\\u%04x", cp));
      } else {
        out.appendCodePoint(cp);
      }
    });
    if (value.codePointCount(0, value.length()) > SHOWN_CHARACTERS) {
      out.append('…');
    }
    return out.toString();
  }
}
