"""Tests the default run leaves to ``pytest -m slow`` (which CI runs), each with its reason.

The default run must stay a fast inner loop (README: under 90 s on two cores).  A test listed
here is marked ``slow`` when it is collected (:func:`conftest.pytest_collection_modifyitems`),
as if it carried ``@pytest.mark.slow``; a key is a test's node id, or its node id without the
parameters (every case of it).  ``tests/test_suite_guards.py`` fails on a key that names no test.

The reasons, by kind:

* **generated** — compares generated files with their generator's output, which CI's
  ``scripts/gen_all.py --check`` does again;
* **fresh** — starts fresh interpreters (a third of a second each) for a behaviour that the
  default run also tests in-process, or in one other case kept;
* **sweep** — a property or a sweep over many random cases or every example, at a size that
  costs a second or more; the rule it guards has its direct tests in the default run;
* **server** — a language-server session around a long check (a real server, real seconds);
  the default run keeps one such session per behaviour of the server.
"""

from __future__ import annotations

GENERATED = "generated: CI's gen_all --check compares these files too"
FRESH = "fresh: fresh interpreters for a behaviour the default run tests in-process or in another case"
SWEEP = "sweep: many random cases or every example (a second or more); the direct tests stay in the default run"
SERVER = "server: a real server around a long check; the default run keeps one session of each kind"

SLOW: dict[str, str] = {
    # generated files
    "tests/aa/test_apply.py::test_the_generated_example_states_are_in_sync": GENERATED,
    "tests/aa/test_anniversary.py::test_the_example_states_and_posts_are_what_init_apply_and_summary_write": GENERATED,
    "tests/test_catalogues.py::test_writing_the_po_again_changes_nothing": GENERATED,
    "tests/maneuver/test_svg.py::test_the_committed_pictures_are_up_to_date": GENERATED,
    "tests/aa/test_aa_picture.py::test_the_generated_layouts_are_current": GENERATED,
    "tests/test_catalogues.py::test_fuzzy_entries_are_reported_and_fail_the_check": GENERATED,
    "tests/maneuver/test_svg.py::test_gen_pictures_check_finds_a_stale_picture": GENERATED,
    # fresh interpreters
    "tests/test_parallel.py::test_statistics_name_the_clauses_with_jobs": FRESH,
    "tests/test_parallel.py::test_workers_speak_the_language_of_the_run": FRESH,
    "tests/test_parallel.py::test_workers_speak_the_language_of_the_environment": FRESH,
    "tests/test_parallel.py::test_a_dead_worker_ends_the_run_with_one_line[killed]": FRESH,
    "tests/test_parallel.py::test_a_dead_worker_ends_the_run_with_one_line[exited]": FRESH,
    "tests/test_action.py::test_the_outputs_count_the_findings_and_name_the_sarif_file": FRESH,
    "tests/test_action.py::test_the_check_step_passes_legal_orders_and_takes_args": FRESH,
    "tests/test_action.py::test_files_defaults_to_the_whole_repository": FRESH,
    "tests/test_completion.py::test_a_dumb_terminal_gets_no_colour": FRESH,
    "tests/test_completion.py::test_zsh_shows_each_code_s_name": FRESH,
    "tests/test_completion.py::test_schema_completes_schema_names_and_its_map_option_map_names": FRESH,
    "tests/test_cli.py::test_closed_output_pipe_exits_quietly_with_the_findings_code[sarif]": FRESH,
    "tests/test_cli.py::test_closed_output_pipe_exits_quietly_with_the_findings_code[json]": FRESH,
    "tests/test_cli.py::test_output_pipe_closed_before_the_first_write[args2-0]": FRESH,
    "tests/test_cli.py::test_output_pipe_closed_before_the_first_write[args3-1]": FRESH,
    "tests/test_cli.py::test_suggestions_into_a_closed_pipe": FRESH,
    "tests/test_cli_habits.py::test_folder_runs_are_deterministic_with_jobs": FRESH,
    "tests/test_cli_habits.py::test_quiet_with_jobs_is_quiet_with_one_process": FRESH,
    "tests/test_overrides.py::test_the_lines_are_the_same_with_jobs": FRESH,
    "tests/server/test_command.py::test_the_server_waits_for_a_client_and_ends_with_its_input": FRESH,
    "tests/test_extras.py::test_a_manoeuvre_file_without_shapely_is_one_line_exit_2[check-jobs]": FRESH,
    "tests/maneuver/test_svg.py::test_rendering_an_aa_file_imports_no_shapely": FRESH,
    "tests/test_determinism.py::test_every_example_alone_is_identical_across_hash_seeds": FRESH,
    "tests/server/test_hostile.py::test_a_state_outside_the_workspace_is_one_diagnostic_and_never_read[../linked-state.yaml]":
        FRESH,
    # the installed command prints each schema: the default run keeps the aa-map case; every schema's validity and
    # its packaged text are tested in-process (tests/test_schema.py::test_schema_is_valid_draft_2020_12,
    # ::test_packaged_schema_matches_source_tree)
    "tests/test_packaging.py::test_installed_schema_is_valid_draft_2020_12[aa-state]": FRESH,
    "tests/test_packaging.py::test_installed_schema_is_valid_draft_2020_12[aa-orders]": FRESH,
    "tests/test_packaging.py::test_installed_schema_is_valid_draft_2020_12[maneuver-state]": FRESH,
    "tests/test_packaging.py::test_installed_schema_is_valid_draft_2020_12[maneuver-orders]": FRESH,
    "tests/test_packaging.py::test_installed_schema_is_valid_draft_2020_12[report]": FRESH,
    # a non-UTF-8 file name on a real command line: the default run keeps the text and json cases; every format's
    # escape of an undecodable byte in a name is tested in-process
    # (tests/test_spoofing.py::test_human_formats_escape_messages_paths_and_excerpts,
    # ::test_machine_formats_carry_the_original_text_json_escaped)
    "tests/test_spoofing.py::test_a_file_name_that_is_not_utf8[full]": FRESH,
    "tests/test_spoofing.py::test_a_file_name_that_is_not_utf8[github]": FRESH,
    "tests/test_spoofing.py::test_a_file_name_that_is_not_utf8[json-lines]": FRESH,
    "tests/test_spoofing.py::test_a_file_name_that_is_not_utf8[sarif]": FRESH,
    # sweeps and properties at size
    "tests/aa/test_turn_properties.py::test_a_whole_turn_holds[aa-revised]": SWEEP,
    "tests/aa/test_mobilize_apply.py::test_check_and_apply_agree_on_fighters_at_sea_whatever_the_entries": SWEEP,
    "tests/test_determinism.py::test_inputs_untouched_by_every_format": SWEEP,
    "tests/maneuver/test_reach.py::test_property_certain_ends_are_legal_on_a_crowded_field": SWEEP,
    "tests/maneuver/test_reach.py::test_property_ends_beyond_the_limit_are_mv101_on_a_crowded_field": SWEEP,
    "tests/maneuver/test_limits.py::test_corps_in_dense_terrain_is_unchecked_not_legal": SWEEP,
    "tests/maneuver/test_limits.py::test_the_verdict_is_the_unbounded_search_s_whatever_the_order_of_the_orders": SWEEP,
    "tests/maneuver/test_free.py::test_property_free_straight_moves": SWEEP,
    "tests/aa/test_landing.py::test_search_is_iterative": SWEEP,
    "tests/aa/test_bounds.py::test_the_unload_bound_never_claims_an_error_some_choice_avoids": SWEEP,
    "tests/aa/test_choice_runs.py::test_counting_bounds_with_transports_sailing_hold_for_the_whole_search": SWEEP,
    "tests/aa/test_model.py::test_random_orders_on_the_full_setup_never_crash": SWEEP,
    "tests/aa/test_swappable.py::test_the_split_by_alike_units_never_changes_the_verdict": SWEEP,
    "tests/test_render.py::test_any_report_is_valid_sorted_and_order_independent": SWEEP,
    "tests/test_cost.py::test_moves_out_of_a_big_stack_cost_each_move_its_own_size": SWEEP,
    "tests/test_i18n.py::test_no_function_hides_the_translation_function": SWEEP,
    "tests/test_parallel.py::test_every_format_byte_for_byte": SWEEP,
    "tests/test_parallel.py::test_the_state_named_across_parts_is_reported_once": SWEEP,
    "tests/test_i18n.py::test_no_message_is_an_f_string": SWEEP,
    "tests/test_validators.py::test_a_changed_document_gets_jsonschemas_answer": SWEEP,
    "tests/aa/test_apply.py::test_applying_legal_orders_gives_a_clean_state_that_reads_back": SWEEP,
    "tests/test_cost.py::test_many_unknown_names_compare_few_names": SWEEP,
    "tests/aa/test_aa_board_picture.py::test_the_turn_picture_shows_the_part_of_the_board_it_touches": SWEEP,
    # language-server sessions around a long check
    "tests/server/test_never_blocks.py::test_an_edit_during_a_check_of_the_whole_budget_publishes_only_the_newer_version":
        SERVER,
    "tests/server/test_never_blocks.py::test_an_edit_of_a_state_that_leaves_its_data_the_same_rechecks_none_of_its_readers":
        SERVER,
    "tests/server/test_hostile.py::test_a_state_outside_the_workspace_is_one_diagnostic_and_never_read[/etc/hostname]":
        SERVER,
}
