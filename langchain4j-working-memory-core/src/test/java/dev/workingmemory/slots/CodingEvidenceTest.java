package dev.workingmemory.slots;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A source location and its error word, an error reply's own trace and a diff ({@link CodingEvidence}); the labelled
 * sets measure the rest.
 */
class CodingEvidenceTest {

    /** Next.js's failed build: the location alone on its line, the message under it, then the code frame. */
    static final String NEXT_JS_TYPE_ERROR = """
            Failed to compile.

            ./app/page.tsx:12:5
            Type error: Property 'titel' does not exist on type 'Post'. Did you mean 'title'?

              11 |     <main>
            > 12 |       {post.titel}

            Next.js build worker exited with code: 1 and signal: null""";

    @Test
    void should_read_a_location_that_starts_with_a_dot_and_a_slash() {
        assertThat(CodingEvidence.hasSourceLocation("./app/page.tsx:12:5")).isTrue();
        assertThat(CodingEvidence.hasSourceLocation("../lib/util.py:3")).isTrue();
        assertThat(CodingEvidence.hasSourceLocation("./notes.txt:12")).as("no source file").isFalse();
        assertThat(CodingEvidence.isEvidence("PHP Parse error:  syntax error, unexpected token \"}\" in"
                + " /app/src/index.php on line 14")).as("PHP's location").isTrue();
    }

    @Test
    void should_take_a_location_with_its_error_word_on_a_line_next_to_it() {
        String terraform = """
                │ Error: Reference to undeclared resource
                │
                │   on main.tf line 12, in resource "aws_s3_bucket_policy" "site":
                """;

        assertThat(CodingEvidence.isEvidence(NEXT_JS_TYPE_ERROR)).isTrue();
        assertThat(CodingEvidence.isEvidence(terraform)).isTrue();
    }

    @Test
    void should_not_join_a_location_and_an_error_word_three_lines_apart() {
        String apart = """
                The page was checked.
                ./app/page.tsx:12:5
                It has a heading.
                It has a footer.
                It has a sidebar.
                Its error count is zero.
                """;

        assertThat(CodingEvidence.isEvidence(apart)).isFalse();
    }

    @Test
    void should_not_take_a_location_named_in_a_sentence() {
        String search = """
                1. How to fix 'TypeError: Cannot read properties of undefined' - Stack Overflow
                   The error usually means the page's script ran before the form loaded, as at checkout.js:14 ...
                """;

        assertThat(CodingEvidence.isEvidence(search)).isFalse();
        assertThat(CodingEvidence.isEvidence("PHP Fatal error:  Uncaught Exception: the cart went away in"
                + " /app/src/cart.php:12")).as("a label before the words").isTrue();
        assertThat(CodingEvidence.isEvidence("src/main/java/App.java:42: error: cannot find symbol")).isTrue();
        assertThat(CodingEvidence.isEvidence("tests/test_api.py:12: AssertionError")).isTrue();
    }

    @Test
    void should_not_take_the_trace_of_a_failing_services_error_reply() {
        String trace = "Error: connect ECONNREFUSED 10.0.0.5:5432\\n"
                + "    at Pool.connect (/srv/flights/node_modules/pg-pool/index.js:45:11)\\n"
                + "    at search (/srv/flights/src/search.js:22:9)";

        assertThat(CodingEvidence.isEvidence("{\"error\":\"Internal Server Error\",\"stack\":\"" + trace + "\"}"))
                .as("Express").isFalse();
        assertThat(CodingEvidence.isEvidence("{\"error\":{\"message\":\"connect refused\",\"stack_trace\":\""
                + trace + "\"}}")).as("in the error object").isFalse();
        assertThat(CodingEvidence.isEvidence("{\"exit_code\":1,\"stderr\":\"" + trace + "\"}"))
                .as("a command's output").isTrue();
        assertThat(CodingEvidence.isEvidence("{\"stats\":{\"failures\":1},\"failures\":[{\"title\":\"searches\","
                + "\"err\":{\"stack\":\"" + trace + "\"}}]}")).as("a test report's failure (Mocha)").isTrue();
    }

    @Test
    void should_take_a_diff_of_code_and_not_of_a_page() {
        String page = """
                --- a/pages/about.md
                +++ b/pages/about.md
                @@ -1,3 +1,3 @@
                 # About me
                -I write about slow travel.
                +I write about slow travel and food.
                """;
        String code = page.replace("pages/about.md", "src/about.py");
        String plainDiff = """
                --- src/app.py	2026-05-02 10:00:00
                +++ src/app.py	2026-05-02 10:05:00
                @@ -1 +1 @@
                -x = 1
                +x = 2
                """;

        assertThat(CodingEvidence.isEvidence(page)).isFalse();
        assertThat(CodingEvidence.isEvidence(code)).isTrue();
        assertThat(CodingEvidence.isEvidence(plainDiff)).isTrue();
        assertThat(CodingEvidence.isEvidence("diff --git a/README.md b/README.md\n" + page)).as("git's").isTrue();
    }

    @Test
    void should_not_take_a_sites_error_page() {
        String trace = """
                Traceback (most recent call last):
                  File "/srv/rooms/views.py", line 41, in list_rooms
                    rooms = Room.objects.all()
                OperationalError: could not connect to server""";
        String page = "<!DOCTYPE html>\n<html>\n<head><title>OperationalError at /rooms/</title></head>\n<body>\n"
                + "<textarea id=\"traceback_area\">\n" + trace + "\n</textarea>\n</body>\n</html>";

        assertThat(CodingEvidence.isEvidence(trace)).isTrue();
        assertThat(CodingEvidence.isEvidence(page)).isFalse();
        assertThat(CodingEvidence.isEvidence(page.replace("<!DOCTYPE html>\n", ""))).as("<html> first").isFalse();
        assertThat(CodingEvidence.isEvidence("{\"status\":500,\"body\":\"" + page.replace("\"", "\\\"")
                .replace("\n", "\\n") + "\"}")).as("a fetch tool's JSON with the page").isFalse();
        assertThat(CodingEvidence.isEvidence("{\"stdout\":\"" + trace.replace("\"", "\\\"").replace("\n", "\\n")
                + "\"}")).as("the trace as a command's output").isTrue();
    }

    @Test
    void should_not_take_a_failing_soap_services_fault() {
        String trace = """
                java.lang.IllegalStateException: Fare engine unavailable
                	at com.gds.fares.FareEngine.quote(FareEngine.java:211)
                	at com.gds.fares.FareService.search(FareService.java:88)""";
        String fault = "<?xml version=\"1.0\"?>\n<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">\n"
                + "<soap:Body>\n<soap:Fault>\n<faultstring>Fare engine unavailable</faultstring>\n<detail>\n"
                + trace + "\n</detail>\n</soap:Fault>\n</soap:Body>\n</soap:Envelope>";
        String pom = "<?xml version=\"1.0\"?>\n<project>\n  <artifactId>shop</artifactId>\n</project>";

        assertThat(CodingEvidence.isEvidence(trace)).isTrue();
        assertThat(CodingEvidence.isEvidence(fault)).isFalse();
        assertThat(CodingEvidence.isEvidence(pom)).as("a build file in XML").isTrue();
    }

    @Test
    void should_take_a_python_module_whose_lines_end_in_neither_semicolons_nor_braces() {
        String module = """
                from decimal import Decimal


                def total(price: Decimal, code: str | None = None) -> Decimal:
                    if code == "SAVE10":
                        return price * Decimal("0.9")
                    return price""";
        String packing = """
                for the beach:
                    towels
                    sunscreen
                    return the umbrella to Ana
                    snacks""";

        assertThat(CodingEvidence.isEvidence(module)).isTrue();
        assertThat(CodingEvidence.isEvidence("{\"path\": \"src/cart.py\", \"content\": \""
                + module.replace("\"", "\\\"").replace("\n", "\\n") + "\"}")).as("read by a tool answering in JSON")
                .isTrue();
        String recipe = """
                for 4 people (serves 4):
                    use a large pan
                    let the onions soften
                    return the rice to the heat
                    stir in the stock""";

        assertThat(CodingEvidence.isEvidence(packing)).as("a list under a line of prose ending in a colon").isFalse();
        assertThat(CodingEvidence.isEvidence(recipe)).as("the same with parentheses and lines led by keywords")
                .isFalse();
    }

    @Test
    void should_read_only_an_import_statements_shape_as_one() {
        assertThat(Imports.isStatement("from decimal import Decimal")).isTrue();
        assertThat(Imports.isStatement("from .models import (Cart,")).isTrue();
        assertThat(Imports.isStatement("import os.path as p")).isTrue();
        assertThat(Imports.isStatement("import static org.junit.Assert.*;")).isTrue();
        assertThat(Imports.isStatement("import duties apply to orders over 150 EUR")).isFalse();
        assertThat(Imports.isStatement("from Lisbon to Porto")).isFalse();
        assertThat(Imports.isStatement("import")).isFalse();
        assertThat(Imports.isStatement("import { total } from \"./cart\"")).isTrue();
    }

    @Test
    void should_take_a_dockerfile_and_not_a_sql_query() {
        String dockerfile = """
                FROM node:20-alpine AS builder
                WORKDIR /app
                COPY package*.json ./
                RUN npm ci
                COPY . .
                RUN npm run build""";
        String query = """
                SELECT sku, SUM(quantity) AS sold
                FROM orders AS o
                WHERE o.created_at >= '2026-05-01'
                GROUP BY sku
                ORDER BY sold DESC;""";

        assertThat(CodingEvidence.isEvidence(dockerfile)).isTrue();
        assertThat(CodingEvidence.isEvidence(dockerfile.replace("node:20-alpine", "node"))).as("no tag, no registry")
                .isFalse();
        assertThat(CodingEvidence.isEvidence(query)).isFalse();
    }

    @Test
    void should_take_build_tools_lines_of_success() {
        assertThat(CodingEvidence.isEvidence("""
                   Compiling api v0.3.0 (/home/dev/api)
                    Finished `dev` profile [unoptimized + debuginfo] target(s) in 12.31s""")).as("cargo").isTrue();
        assertThat(CodingEvidence.isEvidence("""
                Updating 3b8d0c2..9f2c1e7
                Fast-forward
                 src/cart.ts | 12 ++++++------
                 1 file changed, 6 insertions(+), 6 deletions(-)""")).as("git").isTrue();
        assertThat(CodingEvidence.isEvidence("ok  \texample.com/api/handlers\t0.014s")).as("go test").isTrue();
        assertThat(CodingEvidence.isEvidence("added 231 packages, and audited 232 packages in 4s")).as("npm").isTrue();
        assertThat(CodingEvidence.isEvidence("""
                Terraform will perform the following actions:

                  # aws_s3_bucket.assets will be created

                Plan: 1 to add, 0 to change, 0 to destroy.""")).as("terraform").isTrue();
        assertThat(CodingEvidence.isEvidence("Installed 3 updates. Your device is up to date.")).isFalse();
        assertThat(CodingEvidence.isEvidence("Our accounts were prepared, and audited by an independent firm.\n"
                + "We met our sales target(s) in March.")).as("an annual report's words").isFalse();
    }

    @Test
    void should_find_the_tool_cues_anywhere_in_a_line() {
        assertThat(CodingEvidence.containsToolLine("[INFO] BUILD SUCCESS")).isTrue();
        assertThat(CodingEvidence.containsToolLine("npm ERR! code E404")).isTrue();
        assertThat(CodingEvidence.containsToolLine("Build succeeded, tests passed")).isFalse();
        assertThat(CodingEvidence.containsToolLine("")).isFalse();
    }
}
