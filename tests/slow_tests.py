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
  the default run keeps one such session per behaviour of the server;
* **heavy** — a test of its own behaviour that measured half a second or more (CPU or wall) in a
  default run of about 5,400 tests (wave 8 of the test run's time, ``docs/development.md``): the
  README's command has to stay under 90 s on two cores, so these run in CI's slow run with the
  others.  A test whose snapshots share a file with others, or whose time is a module fixture's
  start, stays (moving it would not save the time, or syrupy would call its snapshots unused).
"""

from __future__ import annotations

GENERATED = "generated: CI's gen_all --check compares these files too"
FRESH = "fresh: fresh interpreters for a behaviour the default run tests in-process or in another case"
SWEEP = "sweep: many random cases or every example (a second or more); the direct tests stay in the default run"
SERVER = "server: a real server around a long check; the default run keeps one session of each kind"
HEAVY = "heavy: half a second or more of its own in the default run (README: under 90 s on two cores); CI runs it"

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
    # heavy tests (wave 8)
    "tests/aa/test_aa_board_picture.py::test_a_png_goes_to_a_pipe_but_never_to_a_terminal": HEAVY,
    "tests/aa/test_aa_board_picture.py::test_around_takes_all_or_a_margin": HEAVY,
    "tests/aa/test_aa_board_picture.py::test_render_writes_a_png_of_the_width_asked": HEAVY,
    "tests/aa/test_aa_picture.py::test_one_arrow_per_move[examples/aa/orders/us1-noncombat.yaml]": HEAVY,
    "tests/aa/test_aa_picture.py::test_one_marker_per_finding_and_every_finding_listed_in_full[examples/aa/orders/variants/bt-aa509-damaged-one-hit.yaml]":
        HEAVY,
    "tests/aa/test_aa_picture.py::test_one_marker_per_finding_and_every_finding_listed_in_full[examples/aa/orders/variants/mob-aa705-fighter-at-sea.yaml]":
        HEAVY,
    "tests/aa/test_aa_picture.py::test_the_same_bytes_every_time": HEAVY,
    "tests/aa/test_anniversary.py::test_every_file_of_the_example_round_checks_legal": HEAVY,
    "tests/aa/test_anniversary.py::test_import_triplea_by_the_game_name_alone_names_no_edition": HEAVY,
    "tests/aa/test_bounds.py::test_shuffling_orders_that_share_no_space_never_changes_the_verdict": HEAVY,
    "tests/aa/test_bounds.py::test_the_movement_bound_never_claims_an_error_some_choice_avoids": HEAVY,
    "tests/aa/test_bounds.py::test_the_slot_bound_never_claims_an_error_some_choice_avoids": HEAVY,
    "tests/aa/test_choice_runs.py::test_kept_listings_and_partial_copies_change_no_finding_nor_assignment": HEAVY,
    "tests/aa/test_game_audit.py::test_each_turn_adds_up[russians]": HEAVY,
    "tests/aa/test_landing.py::test_large_turn_is_exact_or_unchecked_within_the_budget": HEAVY,
    "tests/aa/test_landing.py::test_twelve_hundred_fighters_do_not_recurse_and_stay_cheap": HEAVY,
    "tests/aa/test_layout_plain.py::test_render_without_numpy_scipy_or_networkx[529-spaces]": HEAVY,
    "tests/aa/test_mobilize.py::test_aa704_a_zone_with_enemy_units_under_both_editions": HEAVY,
    "tests/aa/test_nearest_landings.py::test_random_maps_agree": HEAVY,
    "tests/aa/test_odds_cli.py::test_every_german_battle_and_the_turn": HEAVY,
    "tests/aa/test_search_properties.py::test_alike_carriers_regrouped_and_renamed_land_as_many": HEAVY,
    "tests/aa/test_swappable.py::test_b1_loads_out_of_one_busy_territory_are_searched_apart": HEAVY,
    "tests/aa/test_triplea_battle.py::test_first_strike_agrees_with_every_die": HEAVY,
    "tests/aa/test_turn_properties.py::test_a_whole_turn_holds[aa1942-2e]": HEAVY,
    "tests/maneuver/test_geodesic_arrays.py::test_the_ball_is_the_one_built_point_by_point": HEAVY,
    "tests/server/test_hostile.py::test_a_state_outside_the_workspace_is_one_diagnostic_and_never_read[../../outside-state.yaml]":
        HEAVY,
    "tests/server/test_kept.py::test_an_edited_order_gets_a_fresh_runs_report_when_the_kept_run_is_taken_back":
        HEAVY,
    "tests/server/test_kept.py::test_loads_edited_after_the_first_try_diverged_get_a_fresh_runs_report": HEAVY,
    "tests/server/test_lsp.py::test_a_change_waits_for_the_pause_and_a_save_checks_at_once": HEAVY,
    "tests/server/test_lsp.py::test_show_odds_gives_the_battle_an_order_of_a_combat_move_ends_in": HEAVY,
    "tests/server/test_lsp.py::test_the_orders_reading_a_state_are_checked_after_the_pause_not_in_its_check":
        HEAVY,
    "tests/server/test_never_blocks.py::test_a_hover_is_answered_while_a_long_check_runs_and_a_newer_edit_calls_that_check_off":
        HEAVY,
    "tests/server/test_never_blocks.py::test_pull_diagnostics_answer_for_the_text_the_buffer_holds": HEAVY,
    "tests/server/test_settings.py::test_settings_from_the_start_and_changed_live": HEAVY,
    "tests/server/test_state_edits.py::test_a_state_edit_rechecks_the_orders_it_can_change_and_the_others_when_asked":
        HEAVY,
    "tests/test_action.py::test_a_file_name_is_not_shell_code": HEAVY,
    "tests/test_action.py::test_the_check_step_annotates_an_illegal_order": HEAVY,
    "tests/test_cli.py::test_broken_pipe_in_process_keeps_the_exit_code[args0-1]": HEAVY,
    "tests/test_cli.py::test_closed_output_pipe_exits_quietly_with_the_findings_code[text]": HEAVY,
    "tests/test_cli.py::test_colour_on_a_terminal_unless_no_color": HEAVY,
    "tests/test_cli.py::test_output_pipe_closed_before_the_first_write[args1-0]": HEAVY,
    "tests/test_cli_habits.py::test_quiet_leaves_machine_reports_whole": HEAVY,
    "tests/test_completion.py::test_explain_completes_rule_codes": HEAVY,
    "tests/test_completion.py::test_init_and_map_show_complete_map_names": HEAVY,
    "tests/test_completion.py::test_select_and_ignore_complete_prefixes_and_the_last_code_of_a_list": HEAVY,
    "tests/test_cost.py::test_manoeuvre_hints_for_many_unknown_bases_are_bounded": HEAVY,
    "tests/test_determinism.py::test_repeated_runs_in_one_process_are_identical[every-tenth]": HEAVY,
    "tests/test_editors.py::test_map_schema_is_deterministic": HEAVY,
    "tests/test_i18n.py::test_environment_and_locale": HEAVY,
    "tests/test_i18n.py::test_every_message_has_a_russian_form": HEAVY,
    "tests/test_i18n.py::test_machine_reports_keep_their_structure[json]": HEAVY,
    "tests/test_import_graph.py::test_the_graph_is_read": HEAVY,
    "tests/test_interface.py::test_each_aa_state_is_built_once_per_run": HEAVY,
    "tests/test_loading.py::test_deep_nesting_first_line_position[python]": HEAVY,
    "tests/test_loading.py::test_deep_nesting_is_mc008_not_recursion_error[python-flow-sequences]": HEAVY,
    "tests/test_output_files.py::test_a_closed_stdout_ends_quietly_with_the_findings_exit_code[check-examples/aa/orders/uk2-combat.yaml-1]":
        HEAVY,
    "tests/test_parallel.py::test_a_dead_worker_ends_the_run_with_one_line[crashed]": HEAVY,
    "tests/test_parallel.py::test_command_line": HEAVY,
    "tests/test_spoofing.py::test_unsafe_table_is_every_control_format_surrogate_and_separator_character": HEAVY,
    "tests/test_startup.py::test_an_invalid_file_still_gets_jsonschemas_findings": HEAVY,
    "tests/test_structure.py::test_a_check_imports_no_system_commands_and_no_package_metadata": HEAVY,
    "tests/test_summary.py::test_sections_follow_the_turn_not_the_command_line": HEAVY,
    "tests/test_untrusted.py::test_a_discovered_pyproject_is_size_bounded": HEAVY,
    "tests/test_untrusted.py::test_a_stream_named_on_the_command_line_is_refused_and_stdin_still_reads": HEAVY,
    "tests/test_validators.py::test_every_seed_gets_the_same_answer[aa-map]": HEAVY,
    "tests/test_validators.py::test_every_seed_gets_the_same_answer[aa-orders]": HEAVY,
    "tests/test_validators.py::test_every_seed_gets_the_same_answer[aa-state]": HEAVY,
    # heavy tests, second measurement (0.3 s of CPU or more once the first ones had moved)
    "tests/aa/test_aa_board_picture.py::test_every_space_is_drawn_as_its_polygons": HEAVY,
    "tests/aa/test_aa_board_picture.py::test_land_in_its_holders_colour_seas_one_tone_impassable_hatched": HEAVY,
    "tests/aa/test_aa_board_picture.py::test_arrow_labels_say_what_moved_and_no_two_labels_overlap[examples/aa/orders/g1-combat.yaml]":
        HEAVY,
    "tests/aa/test_aa_board_picture.py::test_a_lone_bomber_on_a_factory_is_a_raid_and_with_a_fighter_an_attack":
        HEAVY,
    "tests/aa/test_aa_board_picture.py::test_a_mobilization_shows_its_placements_and_a_purchase_says_what_was_bought":
        HEAVY,
    "tests/aa/test_aa_picture.py::test_one_arrow_per_move[examples/aa/orders/g1-noncombat.yaml]": HEAVY,
    "tests/aa/test_aa_picture.py::test_one_marker_per_finding_and_every_finding_listed_in_full[examples/aa/orders/variants/ncm-aa107-moved-in-combat.yaml]":
        HEAVY,
    "tests/aa/test_apply.py::test_every_played_example_is_legal_and_round_trips[us1-noncombat.yaml]": HEAVY,
    "tests/maneuver/test_limits.py::test_weighed_odds_equal_the_listed_combinations": HEAVY,
    "tests/maneuver/test_limits.py::test_whole_corps_reasons_over_the_slowest_file_as_listing_every_combination_would[2-2-20]":
        HEAVY,
    "tests/maneuver/test_reach_sight.py::test_every_way_sees_what_its_shadows_leave": HEAVY,
    "tests/server/test_hostile.py::test_a_hostile_buffer_gets_one_diagnostic_and_the_server_goes_on[a YAML bomb]":
        HEAVY,
    "tests/test_action.py::test_the_sarif_steps_write_the_report_to_upload": HEAVY,
    "tests/test_batch_memory.py::test_forgetting_a_state_changes_no_byte[github]": HEAVY,
    "tests/test_i18n.py::test_machine_reports_keep_their_structure[sarif]": HEAVY,
    "tests/test_i18n.py::test_maneuver_machine_reports_keep_their_structure[json]": HEAVY,
    "tests/test_imports.py::test_light_commands_do_not_import_heavy_modules[rules]": HEAVY,
    "tests/test_output_files.py::test_a_reader_that_went_away_ends_the_run_quietly": HEAVY,
    "tests/test_packaging.py::test_installed_schema_is_valid_draft_2020_12[aa-map]": HEAVY,
    "tests/test_packaging.py::test_installed_builtin_maps_and_rule_texts": HEAVY,
    "tests/test_packaging.py::test_installed_russian_catalogue": HEAVY,
    "tests/test_precommit.py::test_manifest_is_valid": HEAVY,
    "tests/test_robustness.py::test_max_bytes_from_the_environment": HEAVY,
    "tests/test_untrusted.py::test_proc_self_environ_never_leaks": HEAVY,
    "tests/test_validators.py::test_every_seed_gets_the_same_answer[aa-battles]": HEAVY,
    "tests/aa/test_mobilize_apply.py::test_a_fighter_waiting_for_a_carrier_boards_it_or_is_destroyed": HEAVY,
    "tests/aa/test_odds_engine.py::test_arrays_agree_with_pure_python[att2-dfn2-False-BattleModel-aa1942]": HEAVY,
    "tests/aa/test_pasted_dice.py::test_aa513_a_pasted_roll_with_a_die_too_many": HEAVY,
    "tests/aa/test_sea_battle_first.py::test_aa507_a_land_battle_whose_cargo_sank_is_fought_by_the_units_that_came_overland":
        HEAVY,
    "tests/aa/test_swappable.py::test_shuffling_loads_into_different_zones_out_of_one_territory_never_changes_the_verdict":
        HEAVY,
    "tests/aa/test_triplea.py::test_the_converted_revised_map_checks_a_turn_like_the_built_in_map[combat-mixed-rules-1942]":
        HEAVY,
    "tests/test_dependents.py::test_the_order_is_deterministic": HEAVY,
    "tests/test_extras.py::test_the_simulation_hides_shapely[False]": HEAVY,
    "tests/test_extras.py::test_aa_and_manoeuvre_orders_lint_work_without_shapely": HEAVY,
    "tests/test_formats.py::test_sarif_fingerprints_ignore_line_moves": HEAVY,
    "tests/test_numbers.py::test_json_map_numbers[decimal]": HEAVY,
    "tests/test_robustness.py::test_max_units_from_the_environment": HEAVY,
    "tests/test_spoofing.py::test_a_file_name_that_is_not_utf8[json]": HEAVY,
    "tests/test_startup.py::test_the_entry_point_keeps_output_and_exit_codes[args3-1]": HEAVY,
    "tests/test_validators.py::test_every_seed_gets_the_same_answer[apply-report]": HEAVY,
    # heavy tests, third measurement (0.2 s of CPU or more, one case of a sweep or a second test of a behaviour)
    "tests/aa/test_aa_board_picture.py::test_the_legend_names_every_mark": HEAVY,
    "tests/aa/test_aa_picture.py::test_the_board_shows_every_space_its_holder_and_units": HEAVY,
    "tests/aa/test_anniversary.py::test_import_triplea_labels_the_game_and_carries_objectives_and_chinas_rules[aa-anniversary-1941]":
        HEAVY,
    "tests/aa/test_anniversary.py::test_import_triplea_labels_the_game_and_carries_objectives_and_chinas_rules[aa-anniversary-1942]":
        HEAVY,
    "tests/aa/test_apply.py::test_apply_output_of_the_examples_lints_clean_and_is_deterministic[g1-combat.yaml]":
        HEAVY,
    "tests/aa/test_apply.py::test_every_played_example_is_legal_and_round_trips[g1-battles.yaml]": HEAVY,
    "tests/aa/test_apply.py::test_every_played_example_is_legal_and_round_trips[g1-combat.yaml]": HEAVY,
    "tests/aa/test_apply.py::test_every_played_example_is_legal_and_round_trips[g1-noncombat-applied.yaml]":
        HEAVY,
    "tests/aa/test_apply.py::test_every_played_example_is_legal_and_round_trips[g1-noncombat.yaml]": HEAVY,
    "tests/aa/test_choice_runs.py::test_packings_are_every_way_to_fill_the_vessels_once": HEAVY,
    "tests/maneuver/test_geodesic_arrays.py::test_the_visibility_tests_in_one_call_are_the_tests_one_by_one":
        HEAVY,
    "tests/maneuver/test_reach.py::test_ends_in_the_certain_region_are_legal_for_every_roll[r13]": HEAVY,
    "tests/maneuver/test_svg.py::test_the_ends_in_the_picture_are_the_engines[free-orders.yaml]": HEAVY,
    "tests/test_packaging.py::test_installed_check_of_a_copied_example": HEAVY,
    "tests/test_precommit.py::test_readme_snippet_is_a_valid_config": HEAVY,
    "tests/test_readme.py::test_a_runnable_block_works_as_written[line-48]": HEAVY,
    "tests/test_readme.py::test_a_runnable_block_works_as_written[line-68]": HEAVY,
    "tests/test_render.py::test_the_renderer_docstring_shows_its_output[full]": HEAVY,
    "tests/test_render.py::test_the_renderer_docstring_shows_its_output[github]": HEAVY,
    "tests/aa/test_odds_engine.py::test_arrays_agree_with_pure_python[att2-dfn2-False-AnniversaryBattle-aa1942]":
        HEAVY,
    "tests/aa/test_odds_sea_batch.py::test_a_big_sea_battle_is_the_same_twice": HEAVY,
    "tests/aa/test_search_properties.py::test_transports_agree_with_brute_force": HEAVY,
    "tests/aa/test_state_keys.py::test_a_purchase_in_any_order_writes_the_same_bytes": HEAVY,
    "tests/test_cli.py::test_output_pipe_closed_before_the_first_write[args4-0]": HEAVY,
    "tests/test_cli.py::test_output_pipe_closed_before_the_first_write[args5-0]": HEAVY,
    "tests/test_config.py::test_linting_beside_a_pyproject_without_our_table_imports_no_toml_parser": HEAVY,
    "tests/test_cost.py::test_a_long_turning_motion_is_cut_into_pieces_per_waypoint_not_per_step": HEAVY,
    "tests/test_cost.py::test_long_motion_among_many_shapes_tests_only_nearby_pieces": HEAVY,
    "tests/test_extras.py::test_a_manoeuvre_file_without_shapely_is_one_line_exit_2[apply]": HEAVY,
    "tests/test_numbers.py::test_a_limit_that_is_not_a_plain_whole_number_keeps_its_default[\xb2]": HEAVY,
    "tests/test_numbers.py::test_a_limit_that_is_not_a_plain_whole_number_keeps_its_default[\u0661\u0662]": HEAVY,
    "tests/test_numbers.py::test_a_limit_that_is_not_a_plain_whole_number_keeps_its_default[value2]": HEAVY,
    "tests/test_robustness.py::test_python_tag_through_the_real_command": HEAVY,
    "tests/test_scripts.py::test_check_without_the_shared_folder_exits_0[gen_help]": HEAVY,
    "tests/test_spoofing.py::test_a_file_name_that_is_not_utf8[text]": HEAVY,
    "tests/test_startup.py::test_a_narrow_terminal_gets_typers_help_at_its_width": HEAVY,
    "tests/test_startup.py::test_the_entry_point_keeps_output_and_exit_codes[args0-0]": HEAVY,
    "tests/test_startup.py::test_the_entry_point_keeps_output_and_exit_codes[args5-2]": HEAVY,
    "tests/test_startup.py::test_the_entry_point_keeps_output_and_exit_codes[args6-0]": HEAVY,
    "tests/test_untrusted.py::test_state_naming_a_device_or_a_pipe_is_mc011[/proc/self/fd/1-a FIFO (named pipe)]":
        HEAVY,
}
