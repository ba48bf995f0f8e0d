package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads one tensor entry of a safetensors header from a streaming parser and checks it. */
final class SafetensorsTensorReader {
  /** No real tensor has more dimensions; the bound keeps a hostile shape list small. */
  static final int MAX_DIMENSIONS = 64;

  private SafetensorsTensorReader() {
  }

  static SafetensorsTensor read(JsonParser parser, JsonToken value, String name, String source) throws IOException {
    String where = source + ": tensor '" + SafetensorsTensorReader.shown(name) + "'";
    if (value != JsonToken.START_OBJECT) {
      throw new SafetensorsFormatException(where + " is not a JSON object");
    }
    String dtype = null;
    List<Long> shape = null;
    List<Long> offsets = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken token = parser.nextToken();
      switch (field) {
        case "dtype" -> {
          if (token != JsonToken.VALUE_STRING) {
            throw new SafetensorsFormatException(where + " has a dtype that is not a string");
          }
          dtype = parser.getText();
        }
        case "shape" -> shape = integers(parser, token, where, "shape", MAX_DIMENSIONS);
        case "data_offsets" -> offsets = integers(parser, token, where, "data_offsets", 2);
        default -> parser.skipChildren();
      }
    }
    if (dtype == null || shape == null || offsets == null) {
      throw new SafetensorsFormatException(where + " lacks " + (dtype == null ? "dtype" : shape == null ? "shape"
          : "data_offsets"));
    }
    if (offsets.size() != 2 || offsets.get(0) > offsets.get(1)) {
      throw new SafetensorsFormatException(where + " has data_offsets " + offsets
          + "; expected [begin, end] with begin <= end");
    }
    long elements = 1;
    for (int i = 0; i < shape.size(); i++) {
      try {
        elements = Math.multiplyExact(elements, shape.get(i));
      } catch (ArithmeticException e) {
        throw new SafetensorsFormatException(where + " has shape " + shape
            + " whose element count does not fit in a signed 64-bit integer");
      }
    }
    return new SafetensorsTensor(name, dtype, shape, offsets.get(0), offsets.get(1), elements);
  }

  /** A JSON array of non-negative integers that fit in a long, at most {@code max} of them. */
  private static List<Long> integers(JsonParser parser, JsonToken token, String where, String field, int max)
      throws IOException {
    if (token != JsonToken.START_ARRAY) {
      throw new SafetensorsFormatException(where + " has a " + field + " that is not an array");
    }
    List<Long> values = new ArrayList<>();
    for (JsonToken item = parser.nextToken(); item != JsonToken.END_ARRAY; item = parser.nextToken()) {
      if (values.size() == max) {
        throw new SafetensorsFormatException(where + " has more than " + max + " entries in " + field);
      }
      if (item != JsonToken.VALUE_NUMBER_INT) {
        throw new SafetensorsFormatException(where + " has a non-integer " + parser.getText() + " in " + field);
      }
      if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        throw new SafetensorsFormatException(where + " has " + parser.getText() + " in " + field
            + ", which does not fit in a signed 64-bit integer");
      }
      long v = parser.getLongValue();
      if (v < 0) {
        throw new SafetensorsFormatException(where + " has a negative value " + v + " at index " + values.size()
            + " of " + field);
      }
      values.add(v);
    }
    return values;
  }

  /** A tensor name as it can be shown in a message: cut to 200 characters. */
  static String shown(String name) {
    return name.length() <= 200 ? name : name.substring(0, 200) + "…";
  }
}
