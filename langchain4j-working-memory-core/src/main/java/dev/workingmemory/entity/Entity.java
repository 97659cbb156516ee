package dev.workingmemory.entity;

import dev.workingmemory.internal.Ensure;

import java.util.Locale;

/**
 * Something the agent has encountered in a tool result: a page, a section, an image, a restaurant, ...
 *
 * <h2>Entities without an id</h2>
 * Many tool results name a thing without giving it an id ({@code {"restaurant_name":"Sushi Ran","city":"Sausalito"}}).
 * Such an entity gets a <em>derived id</em> made from its type and name, {@link #derivedId(String, String)}:
 * {@code <type>:<name key>}, where the name key is the name stripped, with every run of whitespace made one space and
 * lower-cased ({@code restaurant:sushi ran}). {@link #withoutId(String, String)} builds one. An entity whose id is
 * exactly the derived id of its own type and name {@linkplain #hasDerivedId() has a derived id}: it is listed without
 * an id ({@code - "Sushi Ran" (restaurant)}), and two of them are the same entity when their types are equal and
 * their names are equal ignoring case and runs of whitespace. The scheme needs no extra field, so stored entities
 * keep their three fields and older stored entities (all with real ids) read as before. A tool's real id that
 * happens to equal the derived id of the entity's own type and name is taken for a derived one.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id   the identifier the tools use ({@code "page-123"}), or a derived id; never blank
 * @param name a human-readable name ({@code "About Us"}); falls back to the id when blank
 * @param type the category in singular form ({@code "page"}); never blank
 */
public record Entity(String id, String name, String type) {

    public Entity {
        Ensure.notBlank(id, "id");
        Ensure.notBlank(type, "type");
        if (name == null || name.isBlank()) {
            name = id;
        }
    }

    /**
     * An entity known only by its name: its id is {@link #derivedId(String, String) derived} from type and name.
     *
     * @throws IllegalArgumentException if {@code name} or {@code type} is blank
     */
    public static Entity withoutId(String name, String type) {
        return new Entity(derivedId(type, name), name, type);
    }

    /**
     * The id of an entity that has none of its own: {@code type + ":" + nameKey(name)}
     * ({@code derivedId("restaurant", " Sushi  Ran")} is {@code "restaurant:sushi ran"}).
     *
     * @throws IllegalArgumentException if {@code name} or {@code type} is blank
     */
    public static String derivedId(String type, String name) {
        Ensure.notBlank(type, "type");
        Ensure.notBlank(name, "name");
        return type + ':' + nameKey(name);
    }

    /** Whether the id is the derived id of this entity's type and name, that is, the tool gave it no id. */
    public boolean hasDerivedId() {
        return id.length() > type.length() + 1 && id.startsWith(type) && id.charAt(type.length()) == ':'
                && id.equals(type + ':' + nameKey(name));
    }

    /** The name stripped, runs of whitespace made one space, lower case: what two names of one thing share. */
    static String nameKey(String name) {
        StringBuilder key = new StringBuilder(name.length());
        boolean space = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isWhitespace(c)) {
                space = key.length() > 0;
            } else {
                if (space) {
                    key.append(' ');
                    space = false;
                }
                key.append(c);
            }
        }
        return key.toString().toLowerCase(Locale.ROOT);
    }
}
