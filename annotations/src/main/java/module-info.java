/** The annotations a Divvy user writes, and nothing else. */
module org.divvy.annotations {
    exports org.divvy.annotations;
}
