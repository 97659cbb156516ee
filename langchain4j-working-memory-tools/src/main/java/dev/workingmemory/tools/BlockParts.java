package dev.workingmemory.tools;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds each layer's element in a rendered {@code <working_memory>} block. Layers render one element each,
 * {@code <name…>…</name>}, on its own line and in layer order; the text inside is escaped, so a layer's
 * closing tag cannot appear in its content.
 *
 * <p>Thread-safe (stateless).
 */
final class BlockParts {

    /**
     * @param chars the element's length
     * @param cut   whether the layer cut its content to fit (it then ends with a "[… n … cut]" marker)
     */
    record Part(int chars, boolean cut) {
    }

    private BlockParts() {
    }

    /** The element of each layer that appears in {@code block}, by layer name; {@code layerNames} in block order. */
    static Map<String, Part> of(String block, List<String> layerNames) {
        Map<String, Part> parts = new HashMap<>();
        int from = 0;
        for (String name : layerNames) {
            int start = elementStart(block, name, from);
            if (start < 0) {
                continue;
            }
            String close = "</" + name + ">";
            int end = block.indexOf(close, start);
            if (end < 0) {
                continue;
            }
            end += close.length();
            String element = block.substring(start, end);
            parts.put(name, new Part(element.length(), element.contains(" cut]")));
            from = end;
        }
        return parts;
    }

    private static int elementStart(String block, String name, int from) {
        String open = "\n<" + name;
        for (int at = block.indexOf(open, from); at >= 0; at = block.indexOf(open, at + 1)) {
            int after = at + open.length();
            if (after < block.length() && (block.charAt(after) == '>' || block.charAt(after) == ' ')) {
                return at + 1;
            }
        }
        return -1;
    }
}
