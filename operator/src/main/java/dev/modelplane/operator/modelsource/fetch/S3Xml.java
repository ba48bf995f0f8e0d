package dev.modelplane.operator.modelsource.fetch;

import static dev.modelplane.operator.modelsource.fetch.SafeXml.children;
import static dev.modelplane.operator.modelsource.fetch.SafeXml.name;
import static dev.modelplane.operator.modelsource.fetch.SafeXml.rawText;
import static dev.modelplane.operator.modelsource.fetch.SafeXml.text;

import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Element;

/** Reads the few S3 XML documents we need (list pages and errors), with DTDs and external entities refused. */
final class S3Xml {
  /** One ListObjectsV2 page. */
  record ListPage(List<Entry> entries, boolean truncated, String nextContinuationToken) {
  }

  /** One {@code <Contents>} element. */
  record Entry(String key, long size, String etag) {
  }

  /** An {@code <Error>} document's code and message (either may be empty). */
  record Error(String code, String message) {
  }

  private S3Xml() {
  }

  static ListPage listPage(String xml) throws FetchException {
    Element root = SafeXml.parse(xml, "S3").getDocumentElement();
    if (!"ListBucketResult".equals(name(root))) {
      throw new FetchException(FetchException.Kind.INVALID, "the S3 list answer is not a ListBucketResult");
    }
    List<Entry> entries = new ArrayList<>();
    for (Element contents : children(root, "Contents")) {
      String key = rawText(contents, "Key");
      String size = text(contents, "Size");
      try {
        entries.add(new Entry(key, Long.parseLong(size), text(contents, "ETag").replace("\"", "")));
      } catch (NumberFormatException e) {
        throw new FetchException(FetchException.Kind.INVALID, "the S3 list answer has key '" + key
            + "' with size '" + size + "'", e);
      }
    }
    return new ListPage(entries, "true".equals(text(root, "IsTruncated")), text(root, "NextContinuationToken"));
  }

  /** The error in an S3 error body; empty code and message when the body is not one. */
  static Error error(String xml) {
    if (xml == null || xml.isBlank()) {
      return new Error("", "");
    }
    try {
      Element root = SafeXml.parse(xml, "S3").getDocumentElement();
      return new Error(text(root, "Code"), text(root, "Message"));
    } catch (FetchException e) {
      return new Error("", "");
    }
  }
}
