package dev.modelplane.operator.modelsource.fetch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** Parses a store's XML answer with DTDs and external entities refused, and finds elements by local name. */
final class SafeXml {
  private SafeXml() {
  }

  /**
   * The document in {@code xml}.
   *
   * @param store how the message names the store, e.g. {@code S3}
   */
  static Document parse(String xml, String store) throws FetchException {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw new FetchException(FetchException.Kind.INVALID, "the " + store + " answer is not well-formed XML: "
          + HttpSender.describe(e), e);
    }
  }

  /** An element's local name, else its name. */
  static String name(Element e) {
    return e.getLocalName() == null ? e.getNodeName() : e.getLocalName();
  }

  /** The child elements named {@code name}, in order. */
  static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && name.equals(name(e))) {
        out.add(e);
      }
    }
    return out;
  }

  /** The first child element named {@code name}, or null. */
  static Element first(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  /** The first such child's text content stripped, empty when there is none. */
  static String text(Element parent, String name) {
    return rawText(parent, name).strip();
  }

  /** The first such child's text content as sent (object keys may start or end with spaces), or empty. */
  static String rawText(Element parent, String name) {
    Element e = first(parent, name);
    return e == null ? "" : e.getTextContent();
  }
}
